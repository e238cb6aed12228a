#!/usr/bin/env node
// Splits src-main/shared/ (issue 36 item 7) into what the renderer sees and what only the main
// process uses. shared/ keeps the modules src-renderer imports, directly or through other shared
// modules (the contract, the column registry, formatting, …); the others move to
// src-main/common/ (or --to NAME), a pure layer beside shared/ that every main-process layer but
// preload/ may import and the renderer may not (eslint.config.mjs, which the script updates).
//
//   node scripts/split-shared.mjs            dry run: prints every move and edit, changes nothing
//   node scripts/split-shared.mjs --write    performs them (git mv, then the edits)
//
// Which modules move is computed when it runs (from the renderer's imports), not listed here, so
// the split stays right after merges. Per move: `git mv` of the module (and of its unit tests in
// test/shared/ to test/<to>/), every relative import of the moved modules and inside them
// rewritten across src-main, src-renderer, test, bench and scripts (same extension style:
// './x.js' stays '.js', './x' stays bare), `shared/<module>` mentions in comments and Markdown
// updated, the READMEs' entries moved, and the layering of eslint.config.mjs extended. It refuses
// to run on a tree where the target folder exists.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const WRITE = args.includes('--write');
const TO = args.includes('--to') ? args[args.indexOf('--to') + 1] : 'common';
if (!/^[a-z][a-z-]*$/.test(TO ?? '') || TO === 'shared') throw new Error(`--to needs a folder name, not ${TO}`);
const SHARED = join(ROOT, 'src-main', 'shared');
const TARGET = join(ROOT, 'src-main', TO);
const SCAN = ['src-main', 'src-renderer', 'test', 'bench', 'scripts'];
const SKIP_DIRS = new Set(['.git', 'node_modules', 'dist', 'release', 'test-output', 'fixtures', 'golden', 'goldens', 'bin', 'obj', 'GcOracle']);
const CODE = /\.(ts|mts|mjs|svelte)$/;
const rel = (p) => relative(ROOT, p).split(sep).join('/');
const say = (s) => process.stdout.write(s + '\n');

if (existsSync(TARGET)) throw new Error(`${rel(TARGET)} exists already: the split has been done`);

function walk(dir, keep) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!SKIP_DIRS.has(name)) out.push(...walk(p, keep));
    } else if (keep(name)) out.push(p);
  }
  return out;
}

/** A file's script text with its offset in the file: the whole of a .ts, each <script> of a .svelte. */
function scripts(file, text) {
  if (!file.endsWith('.svelte')) return [{ code: text, offset: 0 }];
  return [...text.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/g)].map((m) => ({ code: m[2], offset: m.index + m[1].length }));
}

/** Relative specifiers with their place in the file: imports (type-only too), re-exports, dynamic imports. */
function specifiers(file, text) {
  return scripts(file, text).flatMap(({ code, offset }) =>
    ts
      .preProcessFile(code, true, true)
      .importedFiles.filter((f) => f.fileName.startsWith('.'))
      .map((f) => {
        // f.pos is the opening quote's offset: the specifier is the first match from there.
        const pos = text.indexOf(f.fileName, offset + f.pos);
        return { spec: f.fileName, pos, end: pos + f.fileName.length };
      }),
  );
}

function resolveSpec(from, spec) {
  const base = resolve(dirname(from), spec);
  return [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')].find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

// 1. What the renderer sees: every src-main module reachable from src-renderer.
const rendererFiles = walk(join(ROOT, 'src-renderer'), (n) => /\.(ts|svelte)$/.test(n));
const visible = new Set();
const queue = [...rendererFiles];
while (queue.length > 0) {
  const f = queue.pop();
  for (const { spec } of specifiers(f, readFileSync(f, 'utf8'))) {
    const t = resolveSpec(f, spec);
    if (t !== null && t.startsWith(join(ROOT, 'src-main') + sep) && !visible.has(t)) {
      visible.add(t);
      queue.push(t);
    }
  }
}
const outside = [...visible].filter((f) => dirname(f) !== SHARED);
if (outside.length > 0) throw new Error(`the renderer reaches src-main outside shared/: ${outside.map(rel).join(', ')}`);
const sharedModules = readdirSync(SHARED)
  .filter((n) => n.endsWith('.ts'))
  .map((n) => join(SHARED, n));
const moving = sharedModules.filter((f) => !visible.has(f));
say(`renderer-visible, staying in src-main/shared/ (${visible.size}):`);
for (const f of [...visible].sort()) say(`  ${basename(f)}`);
say(`main-process only, moving to ${rel(TARGET)}/ (${moving.length}):`);
for (const f of moving) say(`  ${basename(f)}`);
if (moving.length === 0) process.exit(0);

// 2. The moves: the modules, and their unit tests (test/shared/NAME.test.ts, NAME.*.test.ts).
const moves = new Map(moving.map((f) => [f, join(TARGET, basename(f))]));
const testShared = join(ROOT, 'test', 'shared');
if (existsSync(testShared)) {
  for (const f of moving) {
    const stem = basename(f, '.ts');
    for (const t of readdirSync(testShared))
      if (t === `${stem}.test.ts` || (t.startsWith(`${stem}.`) && t.endsWith('.test.ts'))) moves.set(join(testShared, t), join(ROOT, 'test', TO, t));
  }
}
say('\ngit mv:');
for (const [a, b] of moves) say(`  ${rel(a)} -> ${rel(b)}`);
const movedTo = (p) => moves.get(p) ?? p;

// 3. Import rewrites, computed on the tree before the moves.
const sources = SCAN.filter((d) => existsSync(join(ROOT, d))).flatMap((d) => walk(join(ROOT, d), (n) => CODE.test(n) && !n.endsWith('.d.ts')));
const edits = new Map(); // file (old path) -> new text
say('\nimports rewritten:');
for (const file of sources) {
  const text = readFileSync(file, 'utf8');
  const changes = [];
  for (const { spec, pos, end } of specifiers(file, text)) {
    const target = resolveSpec(file, spec);
    if (target === null || (!moves.has(target) && !moves.has(file))) continue;
    let next = relative(dirname(movedTo(file)), movedTo(target))
      .split(sep)
      .join('/');
    if (!next.startsWith('.')) next = `./${next}`;
    // The specifier's own extension style: './x.js' for x.ts, './x' bare, './x.ts'.
    if (spec.endsWith('.js')) next = next.replace(/\.ts$/, '.js');
    else if (!spec.endsWith('.ts')) next = next.replace(/\.ts$/, '');
    if (next !== spec) changes.push({ pos, end, spec, next });
  }
  if (changes.length === 0) continue;
  let out = text;
  for (const c of [...changes].sort((a, b) => b.pos - a.pos)) out = out.slice(0, c.pos) + c.next + out.slice(c.end);
  edits.set(file, out);
  say(`  ${rel(file)}${moves.has(file) ? ` (now ${rel(movedTo(file))})` : ''}`);
  for (const c of changes) say(`      '${c.spec}' -> '${c.next}'`);
}

// 4. Mentions in comments and docs: `shared/NAME.ts` (or .js) -> `TO/NAME.ts`.
const names = moving.map((f) => basename(f, '.ts'));
const mention = new RegExp(`\\bshared/(${names.map((n) => n.replace(/[-.]/g, '\\$&')).join('|')})\\.(ts|js)\\b`, 'g');
const docs = [...sources, ...walk(ROOT, (n) => n.endsWith('.md')).filter((f) => !rel(f).startsWith('node_modules/'))];
say('\nmentions updated (comments, Markdown):');
for (const file of new Set(docs)) {
  const text = edits.get(file) ?? readFileSync(file, 'utf8');
  const hits = text.match(mention);
  if (hits === null) continue;
  edits.set(file, text.replace(mention, `${TO}/$1.$2`));
  say(`  ${rel(file)}: ${[...new Set(hits)].join(', ')}`);
}

// 5. READMEs: the moved modules' entries from shared/README.md to TO/README.md; the layer table.
const sharedReadme = join(SHARED, 'README.md');
if (existsSync(sharedReadme)) {
  const text = edits.get(sharedReadme) ?? readFileSync(sharedReadme, 'utf8');
  const lines = text.split('\n');
  const kept = [];
  const taken = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^- `([^`]+)\.ts` —/.exec(lines[i]);
    if (m !== null && names.includes(m[1])) {
      const entry = [lines[i]];
      while (i + 1 < lines.length && lines[i + 1].startsWith('  ')) entry.push(lines[++i]);
      taken.push(...entry);
    } else kept.push(lines[i]);
  }
  // A bare list of modules ("- `contract.ts`, `wire.ts`, …"): drop the moved ones from it.
  let rest = kept.join('\n');
  for (const n of names) rest = rest.replace(new RegExp(`, \`${n}\\.ts\``), '').replace(new RegExp(`\`${n}\\.ts\`, `), '');
  const listed = new Set(taken.map((l) => /^- `([^`]+)\.ts`/.exec(l)?.[1]).filter(Boolean));
  // A module the README named only in a list: its entry is its doc comment's first sentence.
  for (const n of names) {
    if (listed.has(n)) continue;
    const doc = /^\/\*\*([\s\S]*?)\*\//
      .exec(readFileSync(join(SHARED, `${n}.ts`), 'utf8'))?.[1]
      .replace(/\n\s*\* ?/g, ' ')
      .trim();
    taken.push(`- \`${n}.ts\`${doc ? ` — ${doc.split(/(?<=\.)\s/)[0]}` : ''}`);
  }
  rest = rest.replace(
    /^Types and small pure helpers shared by main and the renderer[^\n]*\n[^\n]*\n/m,
    `What the renderer sees of src-main: the typed contract and the types and small pure helpers it\nuses (the renderer imports nothing else from \`src-main/\`; eslint.config.mjs). Imports nothing outside\nitself. Pure helpers only the main process uses are in \`../${TO}/\`.\n`,
  );
  edits.set(sharedReadme, rest);
  const target = join(TARGET, 'README.md');
  edits.set(
    target,
    `# ${TO}/\n\nPure types and helpers that several main-process layers share and the renderer does not see (those\nare in \`../shared/\`). Imports only \`shared/\`; no I/O (eslint.config.mjs). Every layer but \`preload/\` may\nimport it.\n\n${taken.join('\n')}\n`,
  );
  say(`\n${rel(sharedReadme)}: ${taken.filter((l) => l.startsWith('- ')).length} entries moved to ${rel(target)}`);
}
const mainReadme = join(ROOT, 'src-main', 'README.md');
if (existsSync(mainReadme)) {
  const text = edits.get(mainReadme) ?? readFileSync(mainReadme, 'utf8');
  const out = text
    .split('\n')
    .flatMap((line) => {
      if (line.startsWith('| `shared/` |'))
        return [
          line.replace(
            /^\| `shared\/` \| [^|]*\|/,
            '| `shared/` | what the renderer sees: the typed contract, the column registry (every per-GC quantity once), the summary type, names of CLR codes, formatting |',
          ),
          `| \`${TO}/\` | pure helpers only the main process uses: ${names.map((n) => `\`${n}\``).join(', ')} | \`shared/\` |`,
        ];
      if (line.startsWith('| `') && !line.includes('`preload/`') && !line.startsWith('| `nettrace/`'))
        return [line.replace(/`shared\/`( \|)?$/, (m, bar) => `\`shared/\`, \`${TO}/\`${bar ?? ''}`)];
      return [line];
    })
    .join('\n')
    .replace(/may import only `shared\/` from\nhere/, `may import only \`shared/\` from\nhere (not \`${TO}/\`)`)
    .replace(/ and `shared\/` are pure:/, `, \`shared/\` and \`${TO}/\` are pure:`);
  if (out !== text) {
    edits.set(mainReadme, out);
    say(`${rel(mainReadme)}: the layer table gains ${TO}/`);
  }
}

// 6. eslint.config.mjs: TO/ is a pure layer that imports only shared/; every layer that may import
// shared/ may import it, except preload/ (the renderer's side). The renderer's rule bans every
// src-main folder but shared/, so TO/ is banned there without a change.
const eslintConfig = join(ROOT, 'eslint.config.mjs');
{
  const text = readFileSync(eslintConfig, 'utf8');
  let out = text.replace(/^(\s*)shared: \[\],\n/m, (m, indent) => `${m}${indent}${TO}: ['shared'],\n`);
  out = out.replace(/^(\s*)(\w+): \[([^\]\n]*'shared'[^\]\n]*)\],$/gm, (m, indent, layer, list) =>
    layer === 'preload' || layer === TO ? m : `${indent}${layer}: [${list.replace("'shared'", `'shared', '${TO}'`)}],`,
  );
  out = out.replace(/const PURE = new Set\(\['shared', /, `const PURE = new Set(['shared', '${TO}', `);
  const added = out.split('\n').filter((l) => !text.split('\n').includes(l));
  if (!out.includes(`${TO}: ['shared'],`) || !out.includes(`const PURE = new Set(['shared', '${TO}', `))
    throw new Error('eslint.config.mjs: LAYERS or PURE not where expected; edit it by hand');
  edits.set(eslintConfig, out);
  say(`\n${rel(eslintConfig)}:`);
  for (const l of added) say(`  + ${l.trim()}`);
}

if (!WRITE) {
  say('\ndry run: nothing changed (--write to perform)');
  process.exit(0);
}

// Perform: the edits (on the old paths, for moved files on the new), then the moves.
for (const [a, b] of moves) {
  mkdirSync(dirname(b), { recursive: true });
  execFileSync('git', ['mv', a, b], { cwd: ROOT });
}
for (const [file, text] of edits) {
  const p = movedTo(file);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
}
execFileSync('git', ['add', rel(join(TARGET, 'README.md'))], { cwd: ROOT });
say('\ndone: run npm run typecheck, npx eslint . and npm run test:unit');
