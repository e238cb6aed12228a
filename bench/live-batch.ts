/**
 * Per-batch cost of the live path, in one process and without a target: `npx tsx bench/live-batch.ts`
 * (LIVE_BATCH_GCS, default 20000 GCs; batches of 10 GCs, each with the previous batch's last GC
 * sent again, as onGCUpdated does). A real trace's GCs are repeated to that length; each batch
 * goes the way a recording's does:
 * - the recorder builds it (columnsFromRecords) and the record worker moves it to the service's
 *   thread (a structured clone that transfers the columns' buffers);
 * - the service adds it to the recording's columns and summary (service/live-summary.ts) and
 *   sends the chart's columns with the summary (the WebSocket frame: encodeWire, and the page's
 *   decodeWire);
 * - the page appends it to its growable series (src-renderer/state/growable-series.ts).
 * Prints the median time per batch in each fifth of the run (equal fifths: the cost does not grow
 * with the session) and the frame's size.
 */
import { toGcRecord } from '../src-main/gc/to-record.js';
import { analyzeTraceFile } from '../src-main/recording/analyze-file.js';
import { LiveSummary } from '../src-main/service/live-summary.js';
import { columnsFromRecords, type GcRecord } from '../src-main/shared/gc-column-registry.js';
import { chartColumns, type LiveBatch } from '../src-main/shared/gc-series.js';
import { decodeWire, encodeWire } from '../src-main/shared/wire.js';
import { GrowableSeries } from '../src-renderer/state/growable-series.js';
import { TRACES } from '../test/helpers/fixtures.js';

const N = Number(process.env.LIVE_BATCH_GCS ?? 20000);
const B = 10;
const a = await analyzeTraceFile(TRACES + 'workload-concurrent.nettrace.zip');
const base = a.analyzer.gcs.filter((g) => g !== undefined).map((g) => toGcRecord(g));
const span = base[base.length - 1]!.pauseStartRelativeMSec + 100;
const recs: GcRecord[] = [];
for (let i = 0; i < N; i++) {
  const r = structuredClone(base[i % base.length]!);
  const shift = Math.floor(i / base.length) * span;
  r.index = i;
  r.number = i + 1;
  r.pauseStartRelativeMSec += shift;
  r.startRelativeMSec += shift;
  recs.push(r);
}
const live = new LiveSummary();
const page = new GrowableSeries();
const fifths: number[][] = [[], [], [], [], []];
let frameBytes = 0;
for (let i = 0; i < N; i += B) {
  const records = recs.slice(i, i + B);
  if (i > 0) records.push(recs[i - 1]!);
  const t0 = performance.now();
  const sent = { sessionId: 1, gcs: columnsFromRecords(records), events: i, bytes: i, droppedEvents: 0, nowMSec: 0, state: 'recording' as const };
  const batch = structuredClone(sent, { transfer: Object.values(sent.gcs).map((c) => c.buffer as ArrayBuffer) });
  const summary = live.add(batch.gcs);
  const frame = encodeWire({ event: 'live-batch', payload: { ...batch, gcs: chartColumns(batch.gcs), summary } }, { fill: true });
  const got = decodeWire(frame) as { payload: LiveBatch };
  page.append(got.payload.gcs);
  fifths[Math.min(4, Math.floor((i / N) * 5))]!.push(performance.now() - t0);
  frameBytes = frame.byteLength;
}
const median = (x: number[]): number => x.sort((p, q) => p - q)[Math.floor(x.length / 2)]!;
console.log(
  `${N} GCs in batches of ${B} + 1 sent again: median µs per batch by fifth of the run: ${fifths.map((f) => (median(f) * 1000).toFixed(0)).join(' / ')}; WebSocket frame ${frameBytes} bytes`,
);
