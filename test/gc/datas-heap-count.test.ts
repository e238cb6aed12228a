/**
 * Server GC under DATAS, on the committed trace of the workload's `datas-phases` scenario (busy,
 * then light; test/fixtures/PROVENANCE.md): every GC's heap count is its own
 * GlobalHeapHistory.NumHeaps — read here straight from the trace's events, independently of the
 * analyzer — and the heap-count changes GCScope reports (analysis, `report` from the file and from
 * a stored session, the Server GC view's data) are exactly the trace's. And the memory headroom:
 * a run with DOTNET_GCHeapHardLimit shows the configured limit exactly.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGCEvent, RUNTIME } from '../../src-main/clr/gc-events.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { importTrace } from '../../src-main/recording/importer.js';
import { reportFromFile, reportFromSession } from '../../src-main/recording/report-source.js';
import { pumpTraceFile } from '../../src-main/recording/trace-file.js';
import { serverGcOfSession } from '../../src-main/recording/server-gc-source.js';
import { ServerGcViews } from '../../src-main/service/server-gc-views.js';
import { getSession } from '../../src-main/store/sessions.js';
import { SessionViews } from '../../src-main/service/session-views.js';
import type { HeapCountChange } from '../../src-main/shared/server-gc.js';
import { Database } from '../../src-main/store/db.js';
import { runCli } from '../helpers/cli.js';
import { traceBytes, TRACES, unzippedName } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'datas-heap-count');
const DATAS = 'workload-net10-datas-phases.nettrace.zip';
const HARD_LIMIT = 'workload-net10-hardlimit.nettrace.zip';
/** DOTNET_GCHeapHardLimit=0xC800000 as the trace was recorded with. */
const LIMIT_BYTES = 0xc800000;
const file = (name: string): string => join(DIR, unzippedName(name));
let db: Database;
const sessions = new Map<string, number>();
/** Imports a fixture once per run (the store refuses a second import of the same file). */
async function sessionOf(name: string): Promise<number> {
  let id = sessions.get(name);
  if (id === undefined) {
    id = (await importTrace(db, file(name))).sessionId;
    sessions.set(name, id);
  }
  return id;
}

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  for (const n of [DATAS, HARD_LIMIT]) writeFileSync(file(n), traceBytes(n));
  db = await Database.open(join(DIR, 'store.db'));
});
afterAll(async () => {
  await db.close();
  rmSync(DIR, { recursive: true, force: true });
});

/**
 * The trace's own answer, without the analyzer: each GlobalHeapHistory's NumHeaps, attributed to
 * the GC whose GCStart came last before it (the runtime fires it at the end of that GC).
 */
async function numHeapsFromTrace(path: string): Promise<{ perGC: Map<number, number>; changes: Omit<HeapCountChange, 'timeMSec'>[] }> {
  const perGC = new Map<number, number>();
  let gc = -1;
  let pointerSize = 8;
  const reader = new NettraceReader({
    onTrace: (t) => void (pointerSize = t.pointerSize),
    onEvent: (e) => {
      if (e.metadata.provider !== RUNTIME || (e.metadata.eventId !== 1 && e.metadata.eventId !== 205)) return;
      const d = decodeGCEvent(e, pointerSize);
      if (d?.kind === 'GCStart') gc = d.count;
      else if (d?.kind === 'GCGlobalHeapHistory') perGC.set(gc, d.numHeaps);
    },
  });
  await pumpTraceFile(path, reader, {});
  const changes: Omit<HeapCountChange, 'timeMSec'>[] = [];
  let last = -1;
  for (const [n, h] of [...perGC].sort((a, b) => a[0] - b[0])) {
    if (last !== -1 && h !== last) changes.push({ gcNumber: n, from: last, to: h });
    last = h;
  }
  return { perGC, changes };
}

const noTime = (c: HeapCountChange[]): Omit<HeapCountChange, 'timeMSec'>[] => c.map(({ gcNumber, from, to }) => ({ gcNumber, from, to }));

describe("DATAS: each GC has its own heap count, and the changes GCScope reports are the trace's", () => {
  it('the trace goes 1 → 2 heaps in the busy phase and back to 1 in the light phase', async () => {
    const { changes } = await numHeapsFromTrace(file(DATAS));
    expect(changes.map((c) => `${c.from}->${c.to}`)).toEqual(['1->2', '2->1']);
  });

  it("every GC with a GlobalHeapHistory gets its NumHeaps as its heap count (not the first GC's, as TraceEvent's process-level value)", async () => {
    const { perGC } = await numHeapsFromTrace(file(DATAS));
    const { analyzer } = await analyzeTraceFile(file(DATAS));
    const gcs = analyzer.gcs.filter((g) => g !== undefined);
    let checked = 0;
    for (const g of gcs) {
      const want = perGC.get(g.number);
      if (want === undefined) continue;
      expect(g.heapCount, `GC ${g.number}`).toBe(want);
      expect(g.processHeapCount, "TraceEvent's value stays the first GC's (oracle comparison)").toBe(1);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
    expect(gcs.some((g) => g.heapCount === 2)).toBe(true);
  });

  it("report (from the file, the stored session and the CLI) lists exactly the trace's heap-count changes, and the header says 1–2 heaps", async () => {
    const { changes } = await numHeapsFromTrace(file(DATAS));
    const fromFile = await reportFromFile(file(DATAS));
    expect(noTime(fromFile.serverGc!.heapCountChanges)).toEqual(changes);
    expect(fromFile.serverGc).toMatchObject({ minHeapCount: 1, maxHeapCount: 2 });
    const sessionId = await sessionOf(DATAS);
    const fromStore = await reportFromSession(db, sessionId);
    expect(fromStore.serverGc).toEqual(fromFile.serverGc);
    const cli = await runCli(['report', file(DATAS)]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('1–2 heaps');
    expect(cli.stdout).toContain(`1→2 at GC #${changes[0]!.gcNumber}, 2→1 at GC #${changes[1]!.gcNumber}`);
    const html = await runCli(['report', '--format', 'html', file(DATAS)]);
    expect(html.stdout).toContain('; 1–2 heaps</dd>');
    expect(html.stdout).toContain(`1→2 at GC #${changes[0]!.gcNumber}, 2→1 at GC #${changes[1]!.gcNumber}`);
  });

  it("the Server GC view's data: one sample per GC after the first, the decisions, and a change pause between GCs for each change", async () => {
    const sessionId = await sessionOf(DATAS);
    // Wired as the service wires it: heap counts from the session view's columns.
    const views = new SessionViews(
      db,
      () => false,
      () => undefined,
    );
    const svc = new ServerGcViews(
      db,
      (id) => views.session(id),
      (s) => views.serverGcData(s),
    );
    const d = await svc.getServerGc(sessionId);
    // The same data as read from the rows (report --session's path).
    expect(d).toEqual(await serverGcOfSession(db, await getSession(db, sessionId)));
    expect(d.serverGc).toBe(true);
    expect(d.missingDynamicEvents).toBe(false);
    expect(d.samples.length).toBeGreaterThan(1000);
    // Every decision that changed the count names the count the next GCs ran with.
    const { perGC } = await numHeapsFromTrace(file(DATAS));
    const changing = d.tunings.filter((t) => t.heapCount !== null && t.newHeapCount !== t.heapCount);
    expect(changing.length, JSON.stringify(d.tunings.slice(0, 6).map((t) => [t.gcNumber, t.heapCount, t.newHeapCount]))).toBe(2);
    for (const t of changing) {
      const next = [...perGC].filter(([n]) => n > t.gcNumber).sort((a, b) => a[0] - b[0])[0]!;
      expect(next[1], `the GC after decision at GC ${t.gcNumber}`).toBe(t.newHeapCount);
    }
    expect(d.changePauses.map((p) => p.afterGCNumber)).toEqual(
      changing.map((t) => t.gcNumber).map((n) => [...perGC.keys()].filter((k) => k >= n).sort((a, b) => a - b)[0]!),
    );
    for (const p of d.changePauses) expect(p.durationMSec).toBeGreaterThan(0);
    // A GC that ran with 2 heaps: one balance row per heap, with what each heap promoted.
    const two = await db.get<{ idx: number }>('SELECT idx FROM gcs WHERE session_id = ? AND heap_count = 2 AND generation = 1 ORDER BY idx LIMIT 1', [
      sessionId,
    ]);
    const balance = await svc.getHeapBalance(sessionId, two!.idx);
    // Re-importing into the same session replaces its DATAS rows: none of the old ones is left
    // (a row past the trace's own, as an older analysis could have written, goes too).
    const rows = async (): Promise<number> => (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM gc_dynamic_events WHERE session_id = ?', [sessionId]))!.n;
    const before = await rows();
    await db.run('INSERT INTO gc_dynamic_events (session_id, seq, gc_idx, gc_number, time_msec, name, data) VALUES (?, 999999, NULL, 1, 0, ?, ?)', [
      sessionId,
      'SuspendForGCPrep',
      '{"durationMSec":1}',
    ]);
    await importTrace(db, file(DATAS), { sessionId });
    expect(await rows()).toBe(before);
    expect((await svc.getServerGc(sessionId)).changePauses).toEqual(d.changePauses);
    expect(balance.map((h) => h.heap)).toEqual([0, 1]);
    expect(balance.some((h) => h.survivedBytes > 0)).toBe(true);
  });
});

describe('memory headroom against DOTNET_GCHeapHardLimit', () => {
  it('report shows the configured hard limit exactly (file and stored session, JSON and text)', async () => {
    const r = await reportFromFile(file(HARD_LIMIT));
    expect(r.memory.hardLimitBytes).toBe(LIMIT_BYTES);
    expect(r.memory.hardLimitMB).toBe(LIMIT_BYTES / 1e6);
    expect(r.memory.maxCommittedMB).toBeGreaterThan(0);
    expect(r.memory.minHeadroomMB).toBeCloseTo(LIMIT_BYTES / 1e6 - r.memory.maxCommittedMB!, 6);
    expect(r.serverGc).toBeNull();
    const sessionId = await sessionOf(HARD_LIMIT);
    expect((await reportFromSession(db, sessionId)).memory).toEqual(r.memory);
    const text = await runCli(['report', file(HARD_LIMIT)]);
    expect(text.stdout).toContain('hard limit 210 MB (209,715,200 bytes)');
    const json = JSON.parse((await runCli(['report', '--format', 'json', file(HARD_LIMIT)])).stdout) as { memory: { hardLimitBytes: number } };
    expect(json.memory.hardLimitBytes).toBe(209_715_200);
    expect((await runCli(['report', '--format', 'html', file(HARD_LIMIT)])).stdout).toContain('hard limit 210 MB (209,715,200 bytes)');
  });

  it('a session without a limit says so, never a made-up one', async () => {
    const r = await reportFromFile(file(DATAS));
    expect(r.memory.hardLimitBytes).toBeNull();
    expect(r.memory.settingsKnown).toBe(true);
    expect(r.memory.minHeadroomMB).toBeNull();
    expect(r.memory.highMemoryLoadPercent).toBe(90);
    // A trace without GCSettingsRundown (.NET Core 3.0): the limit is unknown, not "none".
    const old = await reportFromFile(TRACES + 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip');
    expect(old.memory).toMatchObject({ hardLimitBytes: null, settingsKnown: false });
    expect((await runCli(['report', TRACES + 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip'])).stdout).toContain(
      'hard limit unknown (the trace has no GCSettingsRundown',
    );
  });
});
