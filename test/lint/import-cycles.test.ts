/**
 * No import cycles in src-main or src-renderer (issue 36): two modules that import each other
 * (even for types only) mean a piece both need lives in the wrong one, and a cycle of values can
 * leave a binding undefined at load time, depending on which module is loaded first. The graph is
 * every relative import, re-export and dynamic import, read with the TypeScript compiler's own
 * import scanner (`ts.preProcessFile`, no type checking: about a second), from .ts files and the
 * `<script>` blocks of .svelte files; a cycle is a strongly connected component of more than one
 * module (Tarjan), or a module that imports itself.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src-main', 'src-renderer'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if ((name.endsWith('.ts') && !name.endsWith('.d.ts')) || name.endsWith('.svelte')) out.push(p);
  }
  return out;
}

/** The module a relative specifier names: `./x.js` is `./x.ts`, `./x` is `./x.ts` or `./x/index.ts`. */
function resolveSpecifier(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

function scriptOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

/** A module's relative specifiers: imports, type-only imports, re-exports, dynamic imports. */
function relativeSpecifiers(code: string): string[] {
  return ts
    .preProcessFile(code, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => s.startsWith('.'));
}

/** Every module's relative imports, as absolute paths. A component that imports itself is recursive (Svelte 5's `<svelte:self>`), not a cycle. */
function importGraph(roots: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap((r) => sourceFiles(resolve(r)))) {
    const targets = relativeSpecifiers(scriptOf(file)).map((s) => resolveSpecifier(file, s));
    graph.set(file, [...new Set(targets.filter((t): t is string => t !== null && !(t === file && file.endsWith('.svelte'))))]);
  }
  return graph;
}

/** The graph's cycles: strongly connected components with more than one module, or a self-import. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import cycles', () => {
  it('src-main and src-renderer have none (type-only imports included)', () => {
    const graph = importGraph(ROOTS);
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph).map((scc) => scc.map((f) => relative(process.cwd(), f)))).toEqual([]);
  });

  it('sees type-only imports, re-exports and dynamic imports', () => {
    const code = "import type { A } from './a.js';\nexport { B } from '../b.js';\nconst c = await import('./c.js');\nimport { readFileSync } from 'node:fs';\n";
    expect(relativeSpecifiers(code)).toEqual(['./a.js', '../b.js', './c.js']);
  });

  it('finds a planted cycle, three modules long and a self-import included', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
      ['e', ['e']],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c'], ['e']]);
  });
});
