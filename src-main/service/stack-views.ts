/**
 * The allocations view and the GC detail's "who caused it" (issue 14), answered from a session's
 * stored stacks and samples (store/stack-store.ts) through symbols/. A finished session's data is
 * loaded once and kept (a few sessions); a recording's is read again on each request, since its
 * samples and method names are still arriving.
 */
import type { GcWho, StackAllocations, StackAllocationsQuery } from '../shared/contract.js';
import type { Database } from '../store/db.js';
import { getGcStarts, getPinnedTypesByGcNumber } from '../store/gc-store.js';
import { getSessionStatus } from '../store/sessions.js';
import { loadStackData, type StoredStackData } from '../store/stack-store.js';
import { allocationCallTree, allocationsSummary, FrameNames, gcTriggers, topAllocationStacks, whoCausedIt, type MsecRange } from '../symbols/allocations.js';
import { withStackEvidence } from '../report/stack-evidence.js';
import type { Diagnosis } from '../shared/finding.js';
import { ApiFailure } from './errors.js';

type GcStarts = { idx: number; number: number; startMSec: number }[];

interface Loaded {
  data: StoredStackData;
  names: FrameNames;
  /**
   * Every GC's start, read when first needed: only a GC's "who caused it" and findings evidence
   * on a session with stacks use it, and the allocations view, asked at every opening, does not
   * (reading 100,000 rows for it took half a second of the service's thread).
   */
  gcs: () => Promise<GcStarts>;
}

const KEEP = 3;

export class StackViews {
  private readonly cache = new Map<number, Loaded>();

  constructor(
    private readonly db: Database,
    private readonly isRecording: (sessionId: number) => boolean,
  ) {}

  forget(sessionId: number): void {
    this.cache.delete(sessionId);
  }

  private async load(sessionId: number): Promise<Loaded> {
    const hit = this.cache.get(sessionId);
    if (hit !== undefined) return hit;
    const status = await getSessionStatus(this.db, sessionId);
    if (status === undefined) throw new ApiFailure('not-found', `Session ${sessionId} does not exist (it may have been deleted).`);
    const data = await loadStackData(this.db, sessionId);
    let starts: Promise<GcStarts> | undefined;
    const gcs = (): Promise<GcStarts> => {
      starts ??= getGcStarts(this.db, sessionId);
      // A failed read is tried again next time.
      starts.catch(() => (starts = undefined));
      return starts;
    };
    const loaded: Loaded = { data, gcs, names: new FrameNames(data) };
    // A recording (or an import still running) is read afresh on each request.
    if (!this.isRecording(sessionId) && status !== 'recording') {
      if (this.cache.size >= KEEP) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(sessionId, loaded);
    }
    return loaded;
  }

  async getStackAllocations(sessionId: number, q: StackAllocationsQuery): Promise<StackAllocations> {
    const { data, names } = await this.load(sessionId);
    const range: MsecRange | undefined = q.fromMSec === null && q.toMSec === null ? undefined : { from: q.fromMSec ?? -Infinity, to: q.toMSec ?? Infinity };
    const r = range !== undefined ? { range } : {};
    const summary = allocationsSummary(data, range, names);
    const callTree = allocationCallTree(data, names, {
      ...r,
      direction: q.direction,
      ...(q.kind !== null ? { kind: q.kind } : {}),
      ...(q.typeName !== null ? { typeName: q.typeName } : {}),
      ...(q.search !== null && q.search.trim() !== '' ? { search: q.search.trim() } : {}),
      minShare: 0.005,
    });
    return {
      summary,
      callTree,
      largeObjectStacks: topAllocationStacks(data, names, { ...r, kind: 'large', limit: 5 }),
      namesFinal: data.namesFinal || !this.isRecording(sessionId),
    };
  }

  async getGcWho(sessionId: number, gcIndex: number): Promise<GcWho> {
    const { data, names, ...l } = await this.load(sessionId);
    const gcs = await l.gcs();
    const at = gcs.findIndex((g) => g.idx === gcIndex);
    if (at < 0) throw new ApiFailure('not-found', `GC ${gcIndex} is not in session ${sessionId}.`);
    const gc = gcs[at]!;
    const prev = at > 0 ? gcs[at - 1]!.startMSec : -Infinity;
    const trigger = gcTriggers(data, names, gcs.slice(Math.max(0, at - 1), at + 1)).find((t) => t.gcNumber === gc.number) ?? null;
    // Ticks after the previous GC started, up to this one's start.
    const range = { from: Number.isFinite(prev) ? prev + 1e-9 : -Infinity, to: gc.startMSec };
    const allocations = allocationsSummary(data, range, names);
    let triggerMissing: string | null = null;
    if (trigger === null)
      triggerMissing =
        data.triggers.length === 0
          ? "not in this trace: GC/Triggered events come with the GC keyword at Informational; GCScope's profiles record them"
          : 'no GC/Triggered event was seen for this GC';
    else if (trigger.frames.length === 0) triggerMissing = 'the trace has no call stacks (the session was recorded with stack walks off)';
    return {
      trigger,
      triggerMissing,
      fromMSec: Number.isFinite(prev) ? prev : 0,
      toMSec: gc.startMSec,
      allocations,
      namesFinal: data.namesFinal || !this.isRecording(sessionId),
    };
  }

  /**
   * The findings with who-caused-it evidence (report/stack-evidence.ts). Not while recording: the
   * findings are asked up to once a second then, and the samples are still being stored.
   */
  async withEvidence(sessionId: number, d: Diagnosis, fromMSec: number | null, toMSec: number | null): Promise<Diagnosis> {
    if (this.isRecording(sessionId) || d.findings.length === 0) return d;
    // Who is pinned (issue 39): the pinning finding's GCs' pinned types, as stored with the GCs.
    const pinned = d.findings.some((f) => f.id === 'pinning-fragmentation') ? await getPinnedTypesByGcNumber(this.db, sessionId) : undefined;
    const pinnedArg = pinned !== undefined && pinned.size > 0 ? pinned : undefined;
    const { data, ...l } = await this.load(sessionId);
    if (data.tickCount === 0 && data.triggers.length === 0)
      return pinnedArg === undefined ? d : { ...d, findings: withStackEvidence(d.findings, undefined, pinnedArg) };
    const range = fromMSec === null && toMSec === null ? undefined : { from: fromMSec ?? -Infinity, to: toMSec ?? Infinity };
    return { ...d, findings: withStackEvidence(d.findings, whoCausedIt(data, await l.gcs(), range), pinnedArg) };
  }
}
