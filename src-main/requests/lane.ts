/**
 * The Requests lane's columns (shared/requests.ts RequestLaneData) from a session's spans and
 * pauses: the request group, each request's GC pause time and GCs, in start order (ties by seq).
 * A stored session's are built whole (`requestLaneData`); a recording's grow with each live batch
 * (`LiveRequestLane`), as deltas the page applies (shared/requests.ts applyRequestDelta) — the
 * same rows, batch after batch, as the stored session gives once it has ended. Pure.
 */
import type { RequestLaneData, RequestLaneDelta } from '../shared/requests.js';
import { attributePauses, type AttributedRequest } from './latency.js';
import { requestGroup, requestGroupOf } from './report.js';
import type { PauseInterval, RequestSpan } from './spans.js';

/** Columns of attributed requests (each with its seq), sorted here by (start, seq). */
function columns(group: string | null, version: number, rows: { seq: number; a: AttributedRequest }[]): RequestLaneData {
  rows.sort((x, y) => x.a.startMSec - y.a.startMSec || x.seq - y.seq);
  const names: string[] = [];
  const nameOf = new Map<string, number>();
  const gcOffsets = new Uint32Array(rows.length + 1);
  const gcs: number[] = [];
  const nameIndex = new Uint32Array(rows.length);
  rows.forEach(({ a: q }, i) => {
    let k = nameOf.get(q.name);
    if (k === undefined) {
      k = names.length;
      names.push(q.name);
      nameOf.set(q.name, k);
    }
    nameIndex[i] = k;
    gcOffsets[i] = gcs.length;
    for (const g of q.gcNumbers) gcs.push(g);
  });
  gcOffsets[rows.length] = gcs.length;
  return {
    group,
    version,
    seq: Float64Array.from(rows, (r) => r.seq),
    startMSec: Float64Array.from(rows, (r) => r.a.startMSec),
    durationMSec: Float64Array.from(rows, (r) => r.a.durationMSec),
    gcPauseMSec: Float64Array.from(rows, (r) => r.a.gcPauseMSec),
    nameIndex,
    names,
    gcOffsets,
    gcNumbers: Float64Array.from(gcs),
  };
}

/** A stored session's lane: `spans` in the order they ended (their seq), `pauses` in time order. */
export function requestLaneData(spans: readonly RequestSpan[], pauses: readonly PauseInterval[]): RequestLaneData {
  const group = requestGroup(spans);
  const seqs: number[] = [];
  spans.forEach((s, i) => {
    if (s.group === group) seqs.push(i);
  });
  const a = attributePauses(
    seqs.map((i) => spans[i]!),
    pauses,
  ).requests;
  return columns(
    group,
    0,
    a.map((q, k) => ({ seq: seqs[k]!, a: q })),
  );
}

/**
 * A recording's lane, grown from the spans and pauses each live batch brings (in the order the
 * session pipeline drains them: spans as they end, pauses as they end). `add` returns what changed
 * for the page: the new requests, and the earlier ones a newly read pause overlapped (a pause ends
 * at RestartEE's end, which can come after a request that stopped during the suspension). Holds
 * every span, as the store does; per batch the work is the new rows plus the requests still open
 * when the earliest new pause began.
 */
export class LiveRequestLane {
  private readonly spans: RequestSpan[] = [];
  private readonly pauses: PauseInterval[] = [];
  private readonly counts = new Map<string, number>();
  private group: string | null = null;
  /** Seqs of the group's spans, in the order they ended. */
  private rows: number[] = [];
  /**
   * Each group row's GC pause time as last sent, by seq. A pause newly found to overlap a request
   * adds to its time (an overlap is > 0), so an unchanged time means unchanged GCs too.
   */
  private readonly sent = new Map<number, number>();
  version = 0;

  /** The spans and pauses read since the last call; null when nothing the page shows changed. */
  add(spans: readonly RequestSpan[], pauses: readonly PauseInterval[]): RequestLaneDelta | null {
    const firstNew = this.spans.length;
    for (const s of spans) {
      this.spans.push(s);
      this.counts.set(s.group, (this.counts.get(s.group) ?? 0) + 1);
    }
    let earliestPause = Infinity;
    for (const p of pauses) {
      // Suspensions never overlap and end in order, so they come sorted; one out of order is put in its place.
      let i = this.pauses.length;
      while (i > 0 && this.pauses[i - 1]!.startMSec > p.startMSec) i--;
      this.pauses.splice(i, 0, p);
      earliestPause = Math.min(earliestPause, p.startMSec);
    }
    const groups = [...this.counts].map(([group, count]) => ({ group, count })).sort((a, b) => b.count - a.count || a.group.localeCompare(b.group));
    const group = requestGroupOf(groups);
    if (group !== this.group) {
      // Another group counts as the requests now (the first requests, or more of another kind): the whole lane again.
      this.group = group;
      this.rows = [];
      this.sent.clear();
      this.spans.forEach((s, i) => {
        if (s.group === group) this.rows.push(i);
      });
      return this.delta(this.rows, true);
    }
    if (group === null) return null;
    const affected: number[] = [];
    // Earlier requests a new pause may have overlapped: those that ended after it began (rows are in stop order).
    if (earliestPause !== Infinity) {
      for (let k = this.rows.length - 1; k >= 0; k--) {
        const s = this.spans[this.rows[k]!]!;
        if (s.startMSec + s.durationMSec <= earliestPause) break;
        affected.push(this.rows[k]!);
      }
      affected.reverse();
    }
    for (let i = firstNew; i < this.spans.length; i++) {
      if (this.spans[i]!.group !== group) continue;
      this.rows.push(i);
      affected.push(i);
    }
    if (affected.length === 0) return null;
    return this.delta(affected, false);
  }

  /** Every span and pause received so far (the recording's findings read them; not copies: read, do not change). */
  received(): { spans: readonly RequestSpan[]; pauses: readonly PauseInterval[] } {
    return { spans: this.spans, pauses: this.pauses };
  }

  /** The whole lane now (what the page fetches while recording; later deltas apply to it). */
  snapshot(): RequestLaneData {
    return this.build(this.rows, this.version, false);
  }

  private delta(seqs: readonly number[], reset: boolean): RequestLaneDelta | null {
    const d = this.build(seqs, this.version + 1, !reset);
    if (!reset && d.seq.length === 0) return null;
    this.version++;
    return { ...d, reset };
  }

  /**
   * Columns of `seqs` attributed against every pause so far; with `onlyChanged`, only rows whose
   * values differ from those last sent. A version past the current one is about to be sent: its
   * rows' values are remembered.
   */
  private build(seqs: readonly number[], version: number, onlyChanged: boolean): RequestLaneData {
    const a = attributePauses(
      seqs.map((i) => this.spans[i]!),
      this.pauses,
    ).requests;
    const rows: { seq: number; a: AttributedRequest }[] = [];
    a.forEach((q, k) => {
      const seq = seqs[k]!;
      if (onlyChanged && this.sent.get(seq) === q.gcPauseMSec) return;
      if (version > this.version) this.sent.set(seq, q.gcPauseMSec);
      rows.push({ seq, a: q });
    });
    return columns(this.group, version, rows);
  }
}
