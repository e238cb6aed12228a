/**
 * The Requests lane while recording (issue 42): `npm run bench:live-requests`.
 * What each live batch costs the service (requests/lane.ts LiveRequestLane.add) and the page
 * (shared/requests.ts applyRequestDelta) as a recording's requests grow, against what the lane's
 * former 2 s poll cost: the whole lane built again (requests/lane.ts requestLaneData, the store's
 * read not counted) and shipped every time.
 *
 * Generated load, as a 3,000 req/s service recorded at 10 batches a second: 300 requests a batch,
 * 8 in flight, 50–5,000 µs each, a 2–40 ms GC pause every 60 ms (spans arrive in stop order,
 * pauses as they end, as the session pipeline drains them). Prints per-batch medians and maxima
 * at 10 k, 100 k and 300 k requests. No assertion on time.
 */
import { LiveRequestLane, requestLaneData } from '../src-main/requests/lane.js';
import { applyRequestDelta, type PauseInterval, type RequestLaneData, type RequestSpan } from '../src-main/shared/requests.js';

const PER_BATCH = 300;
const MARKS = [10_000, 100_000, 300_000];
const GROUP = 'Microsoft-AspNetCore-Server-Kestrel/Request';

/** A seeded generator (mulberry32), so every run measures the same load. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = rng(42);
const NAMES = ['GET /fast', 'GET /alloc', 'POST /orders', 'GET /health'];
let clock = 0;
let nextPause = 60;
let gcNumber = 0;

/** The next batch: PER_BATCH requests and the pauses among them, each list in the order it ended. */
function batch(): { spans: RequestSpan[]; pauses: PauseInterval[] } {
  const spans: RequestSpan[] = [];
  const pauses: PauseInterval[] = [];
  for (let i = 0; i < PER_BATCH; i++) {
    const start = clock;
    clock += 1000 / 3000;
    let dur = 0.05 + rand() * 4.95;
    while (nextPause < start + dur) {
      const len = 2 + rand() * 38;
      pauses.push({ startMSec: nextPause, endMSec: nextPause + len, gcNumber: ++gcNumber, generation: gcNumber % 10 === 0 ? 2 : 0, type: 0 });
      if (nextPause > start) dur += len;
      nextPause += 60 + len;
    }
    spans.push({ startMSec: start, durationMSec: dur, group: GROUP, name: NAMES[i % NAMES.length]! });
  }
  spans.sort((a, b) => a.startMSec + a.durationMSec - (b.startMSec + b.durationMSec));
  return { spans, pauses };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const lane = new LiveRequestLane();
let page: RequestLaneData | null = null;
const allSpans: RequestSpan[] = [];
const allPauses: PauseInterval[] = [];
let add: number[] = [];
let apply: number[] = [];
let bytes: number[] = [];
let count = 0;
console.log(`${PER_BATCH} requests per batch (3,000 req/s at 10 batches/s), a GC pause every ~60 ms`);
console.log('requests   service add ms (median / max)   page apply ms (median / max)   delta KB   whole lane again ms   whole lane MB');
for (const mark of MARKS) {
  while (count < mark) {
    const b = batch();
    allSpans.push(...b.spans);
    allPauses.push(...b.pauses);
    let t = performance.now();
    const d = lane.add(b.spans, b.pauses);
    add.push(performance.now() - t);
    if (d === null) continue;
    bytes.push(d.seq.byteLength * 4 + d.nameIndex.byteLength + d.gcNumbers.byteLength + d.gcOffsets.byteLength);
    t = performance.now();
    page = page === null ? d : applyRequestDelta(page, d);
    apply.push(performance.now() - t);
    count += b.spans.length;
  }
  // What the poll did every 2 s: the whole lane from every span and pause (not counting reading them from SQLite).
  const t = performance.now();
  const whole = requestLaneData(allSpans, allPauses);
  const wholeMs = performance.now() - t;
  const wholeMB = (whole.seq.byteLength * 4 + whole.nameIndex.byteLength + whole.gcNumbers.byteLength + whole.gcOffsets.byteLength) / 1e6;
  if (page!.seq.length !== whole.seq.length || page!.gcPauseMSec.some((v, i) => v !== whole.gcPauseMSec[i]))
    throw new Error('the live lane differs from the whole lane');
  const f = (xs: number[]): string => `${median(xs).toFixed(3)} / ${Math.max(...xs).toFixed(3)}`;
  console.log(
    `${String(count).padStart(8)}   ${f(add).padStart(28)}   ${f(apply).padStart(28)}   ${(median(bytes) / 1024).toFixed(1).padStart(8)}   ${wholeMs.toFixed(1).padStart(19)}   ${wholeMB.toFixed(1).padStart(13)}`,
  );
  add = [];
  apply = [];
  bytes = [];
}
