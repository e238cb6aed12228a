// Builds everything `npm start`, the CLI and the tests need:
// - dist/cli.mjs (the gcscope command), dist/import-worker.mjs and dist/record-worker.mjs (imports
//   and live recordings off the UI thread), dist/write-worker.mjs (`gcscope import`'s GC rows
//   written beside decoding),
//   bundled with esbuild (fast; `npm run typecheck` does the type checking);
// - dist/app/main.cjs and dist/preload/index.cjs for Electron (the preload must be one CommonJS
//   file to run sandboxed);
// - dist/renderer/ (the Svelte app) with Vite.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

// The CLI is split (dist/cli.mjs + dist/chunks/): each command's code, and the packages it
// imports, load only when that command runs, which keeps `gcscope events`/`report FILE` startup
// short. The import and recording workers stay self-contained files: they run from
// app.asar.unpacked, where chunks inside the asar would not resolve.
rmSync(new URL('../dist/chunks', import.meta.url), { recursive: true, force: true }); // chunk names change with content
await build({
  ...common,
  entryPoints: { cli: 'src-main/cli/main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  packages: 'external',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
await build({
  ...common,
  entryPoints: {
    'import-worker': 'src-main/service/import-worker.ts',
    'record-worker': 'src-main/service/record-worker.ts',
    'analysis-worker': 'src-main/service/analysis-worker.ts',
    'heap-worker': 'src-main/service/heap-worker.ts',
    'write-worker': 'src-main/store/write-worker.ts',
  },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  packages: 'external',
});
await build({
  ...common,
  entryPoints: { 'app/main': 'src-main/app/main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  external: ['electron', 'sqlite3', 'ws', 'fflate', 'zod', 'commander'],
});
await build({
  ...common,
  entryPoints: { 'preload/index': 'src-main/preload/index.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  platform: 'browser',
  external: ['electron'],
});
if (!process.argv.includes('--no-renderer')) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: fileURLToPath(new URL('../src-renderer/vite.config.ts', import.meta.url)), logLevel: 'warn' });
}
