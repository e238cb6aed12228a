#!/usr/bin/env node
// The gcscope command. The TypeScript sources are bundled into dist/ by `npm install` (prepare).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('gcscope: dist/cli.mjs is missing; run `npm install` (or `npm run build`) in the GCScope folder first\n');
  process.exit(1);
}
const { runAsProcess } = await import('../dist/cli.mjs');
await runAsProcess(process.argv.slice(2));
