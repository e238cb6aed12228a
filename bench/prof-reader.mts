import { readTraceFile } from '../src-main/recording/trace-file.js';
const path = process.argv[2] ?? 'test-output/bench/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace';
let best = 1e9;
for (let i = 0; i < 60; i++) {
  const t0 = performance.now();
  await readTraceFile(path, {});
  best = Math.min(best, performance.now() - t0);
}
console.log(best);
