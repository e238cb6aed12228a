// Bundles the TypeScript sources with esbuild (fast, no type-check: `npm run typecheck` does that).
// Outputs: dist/cli.mjs (the gcscope CLI). Later targets (Electron main, preload, renderer) are
// added here as they appear.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: { cli: 'src-main/cli/main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
