/**
 * The flight recorder (`gcscope watch`, the app's Watch mode; docs/architecture.md, "The flight recorder"):
 * one low-overhead EventPipe session (gc-collect, no stacks, GC rundown only) kept open for as
 * long as the process runs.
 *
 * - Every GC is stored in the session database as it completes (recording/live-recorder.ts does
 *   that part, without the raw-trace tee), so a week-long watch stays small and browsable.
 * - The raw stream goes into an in-memory ring of segments (segment-ring.ts), bounded in MB.
 * - Each completed GC runs the triggers (triggers.ts); a hit, when cooldown and the hourly limit
 *   allow, freezes the ring from `before` seconds ahead of the GC's pause, keeps adding blocks
 *   until `after` seconds past its end, and writes `capture-….nettrace`: an ordinary trace
 *   GCScope and TraceEvent open. The capture is recorded against the watch session (its mark on
 *   the time axis) and imported as a session of its own.
 * - Optionally (`verboseAfter`), a second session with the gc-verbose profile (allocation ticks)
 *   records the post-trigger seconds into a file of its own: it only sees events after the
 *   trigger, which the capture row says by naming it separately.
 * - Reattach (optional): when the target exits, a process with the same name and command line is
 *   waited for and watched in a new session, with the same triggers and limits.
 *
 * GCScope restarting loses the ring (memory) but not the rows or captures: both are in the
 * database; recovery marks the watch session interrupted (recording/recovery.ts).
 */
import { mkdirSync, createWriteStream, type WriteStream } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { diagnose } from '../diagnosis/diagnose.js';
import { diagnosisFacts } from '../diagnosis/facts.js';
import { describeProcess, gcModeLabel } from '../gc/process-info.js';
import { EventPipeSession } from '../diagnostics/eventpipe-session.js';
import { listDotnetProcesses } from '../diagnostics/process-list.js';
import { sessionRequest } from '../diagnostics/profiles.js';
import { DEFAULT_WATCH_SETTINGS, type CaptureInfo, type WatchSettings } from '../shared/capture.js';
import type { GcRecord } from '../shared/gc-record.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import type { LiveBatch } from '../shared/gc-series.js';
import { addCapture, finishCapture, getCapture } from '../store/captures.js';
import { Database } from '../store/db.js';
import { getSession, updateSession } from '../store/sessions.js';
import { importTrace } from '../recording/importer.js';
import { LiveRecorder, type RecordResult } from '../recording/live-recorder.js';
import type { Recorder } from '../recording/recorder.js';
import { BlockKind } from '../nettrace/reader.js';
import { BlockTap } from './block-tap.js';
import { SegmentRing, type RingBlock, type RingStats } from './segment-ring.js';
import { CaptureLimiter, TriggerSet, type TriggerHit } from './triggers.js';

export { DEFAULT_WATCH_SETTINGS, type WatchSettings };

export interface WatchOptions extends WatchSettings {
  pid: number;
  /** Folder for capture files. */
  outDir: string;
  /** Import each capture as a session of its own (default true). */
  importCaptures?: boolean;
  onGC?: (r: GcRecord, sessionId: number) => void;
  onBatch?: (b: LiveBatch<GcColumns>) => void;
  /** A capture was written (or failed). */
  onCapture?: (c: CaptureInfo) => void;
  /** A trigger fired (before its capture is written), or was held back by the limits. */
  onTrigger?: (hit: TriggerHit, refused: string | null) => void;
  /** A new watch session started (first attach, and each reattach). */
  onSession?: (sessionId: number, pid: number) => void;
  /** Anything worth telling the user (reattaching, a format the ring cannot cut). */
  onNote?: (message: string) => void;
  /** Wall clock (ms) for the limits; tests give their own. */
  now?: () => number;
}

export interface WatchResult {
  sessions: number[];
  captures: CaptureInfo[];
  lastRecording: RecordResult | undefined;
  triggersFired: number;
  /** Held back by the limits (cooldown, per hour), a capture being written, or no header yet. */
  triggersRefused: number;
  /** Fired on a GC another trigger's capture already holds: nothing lost, nothing held back. */
  triggersCovered: number;
}

interface ActiveCapture {
  id: number;
  hit: TriggerHit;
  path: string;
  stacks: RingBlock[];
  blocks: RingBlock[];
  toMSec: number;
  timer: NodeJS.Timeout;
  verbose: Promise<string | null>;
  done: Promise<void>;
  finish: () => void;
}

const FINDINGS_EVERY_MS = 5000;

export class Watcher implements Recorder {
  private recorder: LiveRecorder | undefined;
  private ring: SegmentRing | undefined;
  private tap = new BlockTap();
  private triggers: TriggerSet;
  private readonly limiter: CaptureLimiter;
  private readonly active = new Set<ActiveCapture>();
  private readonly pendingCaptures: Promise<void>[] = [];
  private readonly captures: CaptureInfo[] = [];
  private readonly sessions: number[] = [];
  private stopped = false;
  private lastGC: GcRecord | undefined;
  private findingsTimer: NodeJS.Timeout | undefined;
  private firingFindings = new Set<string>();
  /** Some GC had GCPerHeapHistory (looked for until one has). */
  private sawPerHeap = false;
  private fired = 0;
  private refused = 0;
  private covered = 0;
  private finished: Promise<WatchResult> | undefined;
  private wakeReattach: (() => void) | undefined;
  /** The pid being watched now. */
  pid: number;

  constructor(
    private readonly db: Database,
    private readonly opts: WatchOptions,
  ) {
    this.triggers = TriggerSet.parse(opts.triggers);
    this.limiter = new CaptureLimiter(opts.cooldownSec * 1000, opts.maxPerHour);
    this.pid = opts.pid;
  }

  /** The current watch session. */
  get sessionId(): number {
    return this.recorder?.sessionId ?? 0;
  }

  /** A watch tees no raw trace: its ring is in memory, and captures are files of their own. */
  get tracePath(): string {
    return '';
  }

  get ringStats(): RingStats | undefined {
    return this.ring?.stats();
  }

  get downgrades(): string[] {
    return this.recorder?.downgrades ?? [];
  }

  get processInfo(): LiveRecorder['processInfo'] {
    return this.recorder?.processInfo;
  }

  /** Attaches and starts watching; resolves once events flow. */
  async start(): Promise<void> {
    await this.attach(this.opts.pid);
    this.finished = this.run();
  }

  private async attach(pid: number): Promise<void> {
    mkdirSync(this.opts.outDir, { recursive: true });
    this.tap = new BlockTap();
    this.ring = new SegmentRing({ maxBytes: this.opts.ringMB * 1024 * 1024, keepMSec: this.opts.beforeSec * 1000 + 2000 });
    this.triggers = TriggerSet.parse(this.opts.triggers);
    this.lastGC = undefined;
    this.firingFindings = new Set();
    let ringOff = false;
    const recorder = new LiveRecorder(this.db, {
      target: { pid },
      profile: 'gc-collect',
      outDir: this.opts.outDir,
      teeRawTrace: false,
      tags: ['watch'],
      // A small runtime buffer: the stream drains it continuously (segment-ring.ts).
      circularBufferMB: 32,
      nameOf: (name, p) => `watch: ${name} (pid ${p})`,
      onStreamChunk: (d) => {
        if (!ringOff) this.tap.append(d);
      },
      onBlock: (kind, start, end) => {
        if (ringOff) return;
        try {
          this.onBlock(kind, start, end);
        } catch (e) {
          // The GC rows go on; only captures stop.
          ringOff = true;
          this.opts.onNote?.(`captures are off for this session: ${(e as Error).message}`);
        }
      },
      onGC: (r) => this.onGC(r),
      ...(this.opts.onBatch !== undefined ? { onBatch: this.opts.onBatch } : {}),
    });
    // Set first: the stream's first bytes arrive while start() is still running.
    this.recorder = recorder;
    await recorder.start();
    this.pid = pid;
    this.sessions.push(recorder.sessionId);
    this.opts.onSession?.(recorder.sessionId, pid);
    if (this.triggers.findingWindowMSec !== null) this.findingsTimer = setInterval(() => this.checkFindings(), FINDINGS_EVERY_MS);
  }

  private onBlock(kind: number, start: number, end: number): void {
    const ring = this.ring!;
    if (kind === BlockKind.Trace) {
      const t = this.recorder?.trace;
      if (t === undefined) throw new Error('no trace header');
      if (t.format !== 'NetTrace' || t.formatVersion !== 4)
        throw new Error(`the stream is ${t.format} V${t.formatVersion}; captures are cut from NetTrace V4/V5 streams (.NET Core 3.0 and later)`);
      ring.setHeader(this.tap.slice(0, end), BigInt(t.syncTimeQpc), t.qpcFrequency);
    } else {
      const b = ring.add(kind as BlockKind, this.tap.slice(start, end), start);
      if (b !== undefined && b.kind !== BlockKind.Metadata) {
        for (const c of this.active) {
          c.blocks.push(b);
          if (b.maxMSec >= c.toMSec) c.finish();
        }
      }
    }
    this.tap.release(end);
  }

  private onGC(r: GcRecord): void {
    this.lastGC = r;
    this.opts.onGC?.(r, this.sessionId);
    for (const hit of this.triggers.onGC(r)) this.fire(hit);
  }

  /** Finding triggers: the diagnosis of the last window's GCs, every few seconds. */
  private checkFindings(): void {
    const w = this.triggers.findingWindowMSec;
    const p = this.recorder?.sessionPipeline;
    const newest = this.lastGC;
    if (w === null || p === undefined || newest === undefined) return;
    const span = p.analyzer.eventSpan();
    const to = newest.pauseStartRelativeMSec + newest.pauseDurationMSec;
    // The process as the analyzer knows it so far (GC mode, heaps), as a stored session would say.
    const proc = describeProcess(p.analyzer, {});
    const facts = diagnosisFacts({
      ...span,
      hasPerHeapHistory: (this.sawPerHeap ||= p.analyzer.gcs.some((g) => g !== undefined && g.perHeapHistories.length > 0)),
      gcMode: gcModeLabel(proc),
      heapCount: proc.heapCount,
      concurrent: proc.concurrent,
    });
    let warnings: { id: string; title: string }[];
    try {
      const d = diagnose(p.columns(), facts, { range: { fromMSec: Math.max(span.firstEventMSec ?? 0, to - w), toMSec: to } });
      warnings = d.findings.filter((f) => f.severity === 'warning').map((f) => ({ id: f.id, title: f.title }));
    } catch {
      return;
    }
    // A finding fires when it appears, not for as long as it lasts.
    const fresh = warnings.filter((f) => !this.firingFindings.has(f.id));
    this.firingFindings = new Set(warnings.map((f) => f.id));
    if (fresh.length > 0) for (const hit of this.triggers.onFindings(fresh, newest)) this.fire(hit);
  }

  private fire(hit: TriggerHit): void {
    const ring = this.ring;
    if (ring === undefined || this.stopped) return;
    const now = (this.opts.now ?? Date.now)();
    const same = [...this.active].find((c) => c.hit.gcNumber === hit.gcNumber);
    const refusal = !ring.hasHeader
      ? 'the stream has no trace header yet'
      : same !== undefined
        ? `GC #${hit.gcNumber} is in the capture ${same.hit.trigger} started`
        : this.active.size > 0
          ? 'a capture is being written'
          : this.limiter.refusal(now);
    this.opts.onTrigger?.(hit, refusal);
    if (refusal !== null) {
      if (same !== undefined) this.covered++;
      else this.refused++;
      return;
    }
    this.fired++;
    this.limiter.take(now);
    const { stacks, blocks, startMSec } = ring.since(hit.gcStartMSec - this.opts.beforeSec * 1000);
    // The trigger is judged once the GC's row is complete, some blocks after the GC began: a ring
    // too small for the stream's rate has dropped the GC's start by then. The capture is still
    // written (the seconds after it are worth having), and the user is told what to change.
    if (!ring.captureHolds(startMSec, hit.gcStartMSec)) {
      const held = ring.stats();
      const span = held.oldestMSec !== null ? `${Math.max(0, ring.newestMSec - held.oldestMSec).toFixed(0)} ms` : 'nothing';
      this.opts.onNote?.(
        `the capture for GC #${hit.gcNumber} (${hit.trigger}) starts after that GC began: the ring (${this.opts.ringMB} MB) held only the last ${span} of a stream this busy; give it more memory (--ring-mb) to capture the GC and the seconds before it`,
      );
    }
    const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
    const safe = hit.trigger.replace(/[^A-Za-z0-9=-]+/g, '_').slice(0, 40);
    // Absolute (stored with the capture and its session), whatever folder --out was given from.
    const path = join(resolve(this.opts.outDir), `capture-${this.pid}-${stamp}-gc${hit.gcNumber}-${safe}.nettrace`);
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    const c: ActiveCapture = {
      id: 0,
      hit,
      path,
      stacks,
      blocks: [...blocks],
      toMSec: hit.gcEndMSec + this.opts.afterSec * 1000,
      // A quiet process sends no blocks: the post-roll also ends on the wall clock.
      timer: setTimeout(() => finish(), this.opts.afterSec * 1000 + 3000),
      verbose: this.opts.verboseAfter ? this.recordVerbose(path.replace(/\.nettrace$/, '-verbose.nettrace')) : Promise.resolve(null),
      done: finished,
      finish: () => finish(),
    };
    this.active.add(c);
    // The post-roll may already be in the ring (the trigger is judged after the GC ends).
    if (ring.newestMSec >= c.toMSec) finish();
    // A capture that cannot be stored must not end the watch: it is reported and the rows go on.
    const p = this.writeCapture(c).catch((e: unknown) => this.opts.onNote?.(`capture ${c.path} could not be stored: ${(e as Error).message}`));
    this.pendingCaptures.push(p);
  }

  private async writeCapture(c: ActiveCapture): Promise<void> {
    c.id = await addCapture(this.db, {
      sessionId: this.sessionId,
      trigger: c.hit.trigger,
      detail: c.hit.detail,
      gcNumber: c.hit.gcNumber,
      gcStartMSec: c.hit.gcStartMSec,
      gcEndMSec: c.hit.gcEndMSec,
      path: c.path,
    });
    await c.done;
    clearTimeout(c.timer);
    this.active.delete(c);
    try {
      const events = c.blocks.filter((b) => !Number.isNaN(b.minMSec));
      const fromMSec = events.length > 0 ? Math.min(...events.map((b) => b.minMSec)) : null;
      const toMSec = events.length > 0 ? Math.max(...events.map((b) => b.maxMSec)) : null;
      const chunks = this.ring!.captureChunks(c.stacks, c.blocks);
      await writeFile(c.path, chunks);
      const bytes = (await stat(c.path)).size;
      const verbosePath = await c.verbose;
      let captureSessionId: number | null = null;
      if (this.opts.importCaptures !== false) {
        // On a connection of its own: the import's transactions must not interleave with the
        // watch session's row writes (one sqlite3 connection holds one transaction at a time).
        const idb = await Database.open(this.db.path);
        try {
          const r = await importTrace(idb, c.path, { name: `capture: ${c.hit.trigger} at GC #${c.hit.gcNumber}`, force: true });
          captureSessionId = r.sessionId;
          // The process is named by the rundown at a stream's end, which a capture does not reach.
          const info = this.recorder?.processInfo;
          if (info !== undefined) {
            const s = await getSession(idb, this.sessionId);
            await updateSession(idb, r.sessionId, {
              processName: s.processName,
              processId: info.processId,
              commandLine: s.commandLine,
              runtimeVersion: s.runtimeVersion,
              tags: ['capture'],
            });
          }
        } finally {
          await idb.close();
        }
      }
      await finishCapture(this.db, c.id, { status: 'complete', fromMSec, toMSec, bytes, verbosePath, captureSessionId });
    } catch (e) {
      this.opts.onNote?.(`capture ${c.path} failed: ${(e as Error).message}`);
      await finishCapture(this.db, c.id, { status: 'failed' }).catch(() => undefined);
    }
    const info = await getCapture(this.db, c.id);
    if (info !== undefined) {
      this.captures.push(info);
      this.opts.onCapture?.(info);
    }
  }

  /** The gc-verbose profile for the post-trigger seconds, in a second session and file. */
  private async recordVerbose(path: string): Promise<string | null> {
    let file: WriteStream | undefined;
    try {
      const s = await EventPipeSession.open({ pid: this.pid });
      file = createWriteStream(path);
      const f = file;
      await s.start(sessionRequest('gc-verbose', 64), (d) => f.write(d));
      await new Promise((r) => setTimeout(r, this.opts.afterSec * 1000));
      s.stop(5000);
      await s.ended;
      s.close();
      await new Promise<void>((r) => f.end(() => r()));
      return path;
    } catch (e) {
      file?.end();
      this.opts.onNote?.(`the verbose post-trigger recording failed: ${(e as Error).message}`);
      return null;
    }
  }

  private async run(): Promise<WatchResult> {
    let last: RecordResult | undefined;
    for (;;) {
      const recorder = this.recorder!;
      last = await recorder.done();
      clearInterval(this.findingsTimer);
      // The stream ended: captures in their post-roll get what there is.
      for (const c of this.active) c.finish();
      if (this.stopped || !this.opts.reattach || last.endedBy !== 'target-exited') break;
      const next = await this.waitForSuccessor(recorder);
      if (next === undefined) break;
      try {
        await this.attach(next);
        this.opts.onNote?.(`reattached to pid ${next}`);
      } catch (e) {
        this.opts.onNote?.(`reattaching to pid ${next} failed: ${(e as Error).message}`);
        break;
      }
    }
    await Promise.all(this.pendingCaptures);
    return {
      sessions: this.sessions,
      captures: this.captures,
      lastRecording: last,
      triggersFired: this.fired,
      triggersRefused: this.refused,
      triggersCovered: this.covered,
    };
  }

  /** A new process with the same name and command line as the one that exited (polled each second). */
  private async waitForSuccessor(prev: LiveRecorder): Promise<number | undefined> {
    const info = prev.processInfo;
    const oldPid = info?.processId;
    const cmd = info?.commandLine ?? '';
    const name = info?.managedEntrypointAssemblyName ?? '';
    this.opts.onNote?.(`pid ${oldPid} exited; waiting for ${name || cmd} to start again (Ctrl+C stops)`);
    while (!this.stopped) {
      const found = (await listDotnetProcesses().catch(() => [])).find((p) => p.pid !== oldPid && (cmd !== '' ? p.commandLine === cmd : p.name === name));
      if (found !== undefined) return found.pid;
      await new Promise<void>((r) => {
        this.wakeReattach = r;
        setTimeout(r, 1000).unref();
      });
    }
    return undefined;
  }

  /** Stops watching (captures in progress are written with what they have); resolves when all is stored. */
  stop(): Promise<WatchResult> {
    this.stopped = true;
    this.wakeReattach?.();
    void this.recorder?.stop('stopped');
    return this.done();
  }

  /** Closes the stream without waiting for the target (it does not answer); captures in progress get what there is. */
  cut(reason: string): Promise<WatchResult> {
    this.stopped = true;
    this.wakeReattach?.();
    void this.recorder?.cut(reason);
    return this.done();
  }

  done(): Promise<WatchResult> {
    if (this.finished === undefined) throw new Error('the watch has not started');
    return this.finished;
  }
}
