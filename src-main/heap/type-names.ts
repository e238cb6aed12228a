/**
 * Type names. Two spellings arrive: the runtime's (BulkType: `System.Collections.Generic.
 * Dictionary`2[System.Int32,Customer]`, nested types with `+`) and PerfView's as stored in
 * .gcdump files (arity stripped, `[`→`<`: `System.Collections.Generic.Dictionary<System.Int32,Customer>`,
 * plus size buckets such as ` (Bytes > 10K)` on big objects).
 *
 * - `clrToPerfViewName` is PerfView's rewrite, so a snapshot GCScope captures names its types as
 *   dotnet-gcdump does (the exported .gcdump, the oracle tests).
 * - `stripSizeBucket` removes PerfView's buckets: one type is one row.
 * - `displayName` is the name as people write it: `Dictionary<int, Customer>`, `byte[]`,
 *   `List<string>[]`: namespaces dropped, C# keywords for the primitive types.
 */

const KEYWORDS: Record<string, string> = {
  'System.Boolean': 'bool',
  'System.Byte': 'byte',
  'System.SByte': 'sbyte',
  'System.Char': 'char',
  'System.Int16': 'short',
  'System.UInt16': 'ushort',
  'System.Int32': 'int',
  'System.UInt32': 'uint',
  'System.Int64': 'long',
  'System.UInt64': 'ulong',
  'System.IntPtr': 'nint',
  'System.UIntPtr': 'nuint',
  'System.Single': 'float',
  'System.Double': 'double',
  'System.Decimal': 'decimal',
  'System.String': 'string',
  'System.Object': 'object',
};

/** PerfView's rewrite of a runtime type name (DotNetHeapDumpGraphReader): drop `N, `[`→`<`, `]`→`>`, `<>`→`[]`. */
export function clrToPerfViewName(clr: string): string {
  return clr.replace(/`\d+/g, '').replaceAll('[', '<').replaceAll(']', '>').replaceAll('<>', '[]');
}

const BUCKET = / \(Bytes > [0-9.]+[KMG]?\)$/;

/** `System.Object[] (Bytes > 100K)` → `System.Object[]`. */
export function stripSizeBucket(name: string): string {
  return name.replace(BUCKET, '');
}

interface TypeRef {
  path: string;
  args: TypeRef[];
  arrays: string[];
}

/**
 * Parses either spelling into a tree. Generic arguments in `<…>` or `[…]` (each argument
 * possibly `[Name, Assembly, …]`), array ranks `[]`, `[,]` (PerfView's `<,>` too).
 */
function parse(s: string): TypeRef {
  let i = 0;
  const isArrayRank = (open: string, close: string): number => {
    // `[]`, `[,]`, `[,,]` (or `<,>`): returns the index after the closing bracket, or -1.
    if (s[i] !== open) return -1;
    let j = i + 1;
    while (s[j] === ',') j++;
    return s[j] === close ? j + 1 : -1;
  };
  const one = (depth: number): TypeRef => {
    let path = '';
    while (i < s.length) {
      const c = s[i]!;
      if (c === '<' || c === '>' || c === ',' || c === ']') break;
      if (c === '[') {
        if (isArrayRank('[', ']') >= 0) break;
        if (path.length > 0 && (s[i + 1] === '[' || /[A-Za-z_]/.test(s[i + 1] ?? ''))) break;
      }
      path += c;
      i++;
    }
    const ref: TypeRef = { path: path.replace(/`\d+/g, '').trim(), args: [], arrays: [] };
    for (;;) {
      let end = isArrayRank('[', ']');
      if (end < 0) end = isArrayRank('<', '>');
      if (end >= 0) {
        ref.arrays.push('[' + ','.repeat(end - i - 2) + ']');
        i = end;
        continue;
      }
      const open = s[i];
      if ((open === '<' || open === '[') && depth < 64) {
        const close = open === '<' ? '>' : ']';
        i++;
        while (i < s.length && s[i] !== close) {
          if (s[i] === ',' || s[i] === ' ') {
            i++;
            continue;
          }
          if (open === '[' && s[i] === '[') {
            // `[Name, Assembly, Version=…]`: the name, then skip to the matching `]`.
            i++;
            ref.args.push(one(depth + 1));
            let nest = 0;
            while (i < s.length && !(s[i] === ']' && nest === 0)) {
              if (s[i] === '[') nest++;
              else if (s[i] === ']') nest--;
              i++;
            }
            i++;
          } else ref.args.push(one(depth + 1));
        }
        i++;
        continue;
      }
      break;
    }
    return ref;
  };
  const r = one(0);
  // Anything left (a suffix the grammar does not know): keep it on the path so nothing is lost.
  if (i < s.length) r.path += s.slice(i);
  return r;
}

function render(r: TypeRef): string {
  const keyword = r.args.length === 0 ? KEYWORDS[r.path] : undefined;
  let base: string;
  if (keyword !== undefined) base = keyword;
  else {
    // Nested types (`Outer+Inner`) keep their outer type; namespaces go.
    const nested = r.path.split('+');
    const outer = nested[0]!;
    const dot = outer.lastIndexOf('.');
    nested[0] = dot >= 0 && dot < outer.length - 1 ? outer.slice(dot + 1) : outer;
    base = nested.join('.');
  }
  const args = r.args.length > 0 ? `<${r.args.map(render).join(', ')}>` : '';
  return base + args + r.arrays.join('');
}

/** The name as people write it: `Dictionary<int, Customer>`, `byte[]`. Unparseable names come back as they are. */
export function displayName(name: string): string {
  const bare = stripSizeBucket(name);
  // Only .NET type names are rewritten: JScript dumps and other graphs name nodes their own way.
  if (bare.startsWith('[') || bare.length === 0 || /[()|]|[^,] /.test(bare)) return bare;
  try {
    return render(parse(bare));
  } catch {
    return bare;
  }
}

/** The file name of a module path (`/usr/share/dotnet/…/System.Private.CoreLib.dll` → `System.Private.CoreLib.dll`). */
export function moduleFileName(module: string): string {
  const i = Math.max(module.lastIndexOf('/'), module.lastIndexOf('\\'));
  return i >= 0 ? module.slice(i + 1) : module;
}
