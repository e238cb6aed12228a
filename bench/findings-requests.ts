/**
 * What a findings request costs with request spans (issue 42): `npm run bench:findings-requests`.
 * A live recording's findings are asked while requests stream in; each ask sends the session's
 * spans to the analysis worker and runs every rule, request-tail-gc over all the spans. Measures,
 * for N synthetic requests (N=150000 by default, as a loaded RequestsApp recording reaches) over
 * a real trace's GCs:
 *   clone objects   structured-cloning the spans as objects (what crossed to the worker before)
 *   clone packed    packing them as columns (requests/packed-spans.ts) and cloning that
 *   diagnose        the whole diagnosis with the spans; and without them, for scale
 * Prints the median of ROUNDS (default 7). No assertion on time.
 */
import { diagnose } from '../src-main/diagnosis/diagnose.js';
import { diagnosisFacts } from '../src-main/diagnosis/facts.js';
import { packSpans, unpackSpans } from '../src-main/requests/packed-spans.js';
import { playRecording } from '../test/helpers/played-recording.js';

const N = Number(process.env.N ?? 150_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const { columns } = await playRecording('workload-concurrent.nettrace.zip');
const gcs = columns.number.length;
const t0 = columns.time[0] ?? 0;
const tEnd = (columns.time[gcs - 1] ?? 10_000) + 10;
const spans = Array.from({ length: N }, (_, i) => ({
  startMSec: t0 + ((tEnd - t0) * i) / N,
  durationMSec: 0.5 + (i % 97) * 0.1,
  group: 'Microsoft-AspNetCore-Server-Kestrel/Request',
  name: i % 4 === 0 ? 'GET /alloc' : 'GET /fast',
}));
const pauses = Array.from({ length: gcs }, (_, i) => ({
  startMSec: columns.time[i]!,
  endMSec: columns.time[i]! + 2,
  gcNumber: columns.number[i]!,
  generation: 0,
  type: 0,
}));
const base = { firstEventMSec: t0, lastEventMSec: tEnd, hasPerHeapHistory: true, gcMode: 'workstation' as const, heapCount: 1, concurrent: true };
const facts = diagnosisFacts({ ...base, requests: { spans, pauses } });
const without = diagnosisFacts(base);

const time = (f: () => void): number => {
  const a = performance.now();
  f();
  return performance.now() - a;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const r = { objects: [] as number[], packed: [] as number[], diagnose: [] as number[], bare: [] as number[] };
for (let k = 0; k < ROUNDS; k++) {
  r.objects.push(time(() => structuredClone(facts.requests)));
  r.packed.push(time(() => unpackSpans(structuredClone(packSpans(spans)))));
  r.diagnose.push(time(() => diagnose(columns, facts, { overrides: {} })));
  r.bare.push(time(() => diagnose(columns, without, { overrides: {} })));
}
console.log(`${gcs} GCs, ${N.toLocaleString('en-US')} requests, median of ${ROUNDS}:`);
console.log(`  clone as objects        ${median(r.objects).toFixed(0)} ms`);
console.log(`  pack + clone + unpack   ${median(r.packed).toFixed(0)} ms`);
console.log(`  diagnose with requests  ${median(r.diagnose).toFixed(0)} ms`);
console.log(`  diagnose without        ${median(r.bare).toFixed(0)} ms`);
