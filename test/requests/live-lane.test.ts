/**
 * The Requests lane while recording (issue 42): request spans flow through the live path the GCs
 * use — the session pipeline hands each batch's spans and pauses on (PipelineCallbacks
 * onRequestSpans), the service grows the lane (requests/lane.ts LiveRequestLane) and the page
 * applies each batch's delta (shared/requests.ts applyRequestDelta). Played from the real ASP.NET
 * Core trace (fixtures/traces/aspnet-requests.nettrace) in small chunks, flushed as a recording
 * flushes: after the last batch the page's lane is, row for row, the lane the stored session gives
 * (what getRequestSpans answers once the recording has ended).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionPipeline } from '../../src-main/recording/session-pipeline.js';
import { LiveRequestLane, requestLaneData } from '../../src-main/requests/lane.js';
import { applyRequestDelta, requestWindowStats, type PauseInterval, type RequestLaneData, type RequestSpan } from '../../src-main/shared/requests.js';
import { Database } from '../../src-main/store/db.js';
import { getPauseIntervals, getRequestSpans } from '../../src-main/store/request-store.js';
import { createSession } from '../../src-main/store/sessions.js';
import { TRACES } from '../helpers/fixtures.js';

const FILE = TRACES + 'aspnet-requests.nettrace';

const empty = (): RequestLaneData => ({
  group: null,
  version: 0,
  seq: new Float64Array(0),
  startMSec: new Float64Array(0),
  durationMSec: new Float64Array(0),
  gcPauseMSec: new Float64Array(0),
  nameIndex: new Uint32Array(0),
  names: [],
  gcOffsets: new Uint32Array(1),
  gcNumbers: new Float64Array(0),
});

/** The lane as rows a person would compare: name, start, latency, GC time, GCs. */
function rows(d: RequestLaneData): { seq: number; name: string; start: number; dur: number; gc: number; gcs: number[] }[] {
  return Array.from(d.seq, (seq, i) => ({
    seq,
    name: d.names[d.nameIndex[i]!]!,
    start: d.startMSec[i]!,
    dur: d.durationMSec[i]!,
    gc: d.gcPauseMSec[i]!,
    gcs: Array.from(d.gcNumbers.subarray(d.gcOffsets[i]!, d.gcOffsets[i + 1]!)),
  }));
}

describe('the Requests lane grows with live batches', () => {
  it('played through the recording pipeline in 4 KB chunks, the page ends with the lane the stored session gives, and it grew batch by batch', async () => {
    const db = await Database.open(':memory:');
    const id = await createSession(db, { kind: 'gc', name: 't', source: 'record', status: 'recording' });
    const batches: { spans: RequestSpan[]; pauses: PauseInterval[] }[] = [];
    let spans: RequestSpan[] = [];
    let pauses: PauseInterval[] = [];
    const pipeline = new SessionPipeline(db, id, {
      onRequestSpans: (s, p) => {
        spans.push(...s);
        pauses.push(...p);
      },
    });
    const lane = new LiveRequestLane();
    let page = empty();
    const counts: number[] = [];
    const batch = (): void => {
      if (spans.length === 0 && pauses.length === 0) return;
      batches.push({ spans, pauses });
      const delta = lane.add(spans, pauses);
      spans = [];
      pauses = [];
      if (delta === null) return;
      const next = applyRequestDelta(page, delta);
      expect(next, `delta ${delta.version} applies to the page's version ${page.version}`).not.toBeNull();
      page = next!;
      counts.push(page.seq.length);
    };
    const bytes = readFileSync(FILE);
    for (let o = 0; o < bytes.length; o += 4096) {
      pipeline.reader.push(bytes.subarray(o, o + 4096));
      await pipeline.flush();
      batch();
    }
    pipeline.reader.end();
    await pipeline.finish({ status: 'complete', reason: null });
    batch();
    const stored = requestLaneData(await getRequestSpans(db, id), await getPauseIntervals(db, id));
    await db.close();
    // The requests came in many batches, not one at the end.
    expect(batches.length).toBeGreaterThan(10);
    // (The runtime wrote this file in large buffers: its 41 requests arrive in 7 of them.)
    expect(counts.length).toBeGreaterThanOrEqual(5);
    expect(counts.every((n, i) => i === 0 || n > counts[i - 1]!)).toBe(true);
    expect(counts.at(-1)).toBe(41);
    expect(stored.group).toBe('Microsoft-AspNetCore-Server-Kestrel/Request');
    expect(stored.seq.length).toBe(41);
    expect(page.group).toBe(stored.group);
    expect(rows(page)).toEqual(rows(stored));
    // The service's own copy (what getRequestSpans answers while recording) agrees too.
    expect(rows(lane.snapshot())).toEqual(rows(stored));
    expect(lane.snapshot().version).toBe(page.version);
    // So do the tiles over the whole recording; and the one request GC #1 paused is there with its GC time.
    expect(requestWindowStats(page, -Infinity, Infinity)).toEqual(requestWindowStats(stored, -Infinity, Infinity));
    expect(rows(page).filter((r) => r.gcs.includes(1))).toHaveLength(1);
    expect(rows(page).find((r) => r.gcs.includes(1))!.gc).toBeGreaterThan(0);
  });

  it('a pause read after a request it overlapped (the request stopped during the suspension) updates that request in the next batch', () => {
    const lane = new LiveRequestLane();
    const group = 'Microsoft-AspNetCore-Server-Kestrel/Request';
    let page = empty();
    const step = (s: RequestSpan[], p: PauseInterval[]): void => {
      const d = lane.add(s, p);
      if (d !== null) page = applyRequestDelta(page, d)!;
    };
    step([{ startMSec: 10, durationMSec: 5, group, name: 'GET /a' }], []);
    step([{ startMSec: 12, durationMSec: 10, group, name: 'GET /b' }], []);
    expect(rows(page).map((r) => r.gc)).toEqual([0, 0]);
    // GC #7 suspended at 20 and restarted at 30: /b stopped at 22, during the suspension.
    step([], [{ startMSec: 20, endMSec: 30, gcNumber: 7, generation: 2, type: 0 }]);
    expect(rows(page).map((r) => [r.name, r.gc, r.gcs])).toEqual([
      ['GET /a', 0, []],
      ['GET /b', 2, [7]],
    ]);
    // A request started earlier but ending later sorts in by its start.
    step([{ startMSec: 11, durationMSec: 30, group, name: 'GET /c' }], []);
    expect(rows(page).map((r) => [r.name, r.gc])).toEqual([
      ['GET /a', 0],
      ['GET /c', 10],
      ['GET /b', 2],
    ]);
    expect(rows(page)).toEqual(rows(requestLaneData(lane['spans'], lane['pauses'])));
  });

  it('the page skips a delta it already has and asks again after a missing one', () => {
    const lane = new LiveRequestLane();
    const group = 'x/Request';
    const d1 = lane.add([{ startMSec: 1, durationMSec: 1, group, name: '' }], [])!;
    const d2 = lane.add([{ startMSec: 2, durationMSec: 1, group, name: '' }], [])!;
    const d3 = lane.add([{ startMSec: 3, durationMSec: 1, group, name: '' }], [])!;
    expect(d1.reset).toBe(true);
    const snap = lane.snapshot();
    // The fetched lane already has d1..d3: applying one of them again changes nothing.
    expect(applyRequestDelta(snap, d2)).toBe(snap);
    // A page at d1 that missed d2 cannot apply d3.
    const atD1 = applyRequestDelta(empty(), d1)!;
    expect(applyRequestDelta(atD1, d3)).toBeNull();
  });
});
