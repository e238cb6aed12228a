/**
 * Publishes the GC workload for .NET 8, 9 and 10 (or reuses the cache for the current sources) and
 * prints how to start it on each runtime:
 *   npm run publish-workload
 * Tests call buildWorkload() themselves; this is for running the workload by hand and for warming
 * the cache on a CI machine.
 */
import { buildWorkload, RUNTIMES, workloadCommand } from './workload.js';

const started = Date.now();
await buildWorkload();
console.log(`workload ready (${((Date.now() - started) / 1000).toFixed(1)} s; cached until its sources change)`);
for (const r of RUNTIMES) {
  const { command, args } = workloadCommand(r);
  console.log(`${r}: ${[command, ...args].join(' ')} --scenario mixed`);
}
