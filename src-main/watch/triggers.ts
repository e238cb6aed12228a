/**
 * Watch triggers (docs/architecture.md, "The flight recorder"): when a GC, or the window ending
 * at it, deserves a capture. Pure: GC records and findings in, hits out.
 *
 * A trigger is one or more conditions joined by commas, all of which must hold; several triggers
 * (repeated `--trigger`) fire independently. Conditions:
 *
 *   pause>N             the GC's pause (TraceEvent PauseDurationMSec) over N ms
 *   suspension>N        its suspension (SuspendDurationMSec) over N ms
 *   bgc-pause>N         a background GC's final pause (its second suspension) over N ms
 *   gen=N, gen>=N       its condemned generation (0, 1, 2)
 *   kind=K              blocking | background | foreground
 *   induced             GC.Collect in any form: reason Induced, InducedNotForced (TraceEvent's
 *                       IsInduced), InducedLowMemory, InducedCompacting or InducedAggressive
 *   reason=R            the GC reason by name (AllocLarge, LowMemory, …) or number
 *   heap-after>N        heap size after the GC over N MB
 *   paused>P%[/W]       % of the last W (default 60 s) spent paused, GC pauses clipped to the
 *                       window (JMC's rule); judged once the watch has run W
 *   finding[=rule-id]   a diagnosis finding (any, or that rule) at warning level over the last
 *                       W of GCs (`finding/5m`; default 60 s)
 *
 * Numbers take units: ms or s for times, MB or GB for sizes. `>=` works wherever `>` does.
 */
import { GC_REASON_NAMES, gcReasonName } from '../shared/gc-enums.js';
import type { GcRecord } from '../shared/gc-record.js';

/** Every reason a GC.Collect (or its low-memory, compacting and aggressive forms) gives. */
const INDUCED_REASONS = new Set([1, 7, 9, 10, 17]);

export class TriggerSyntaxError extends Error {}

type Cmp = '>' | '>=' | '=';

export type Condition =
  | { k: 'pause' | 'suspension' | 'bgc-pause' | 'heap-after'; cmp: Cmp; value: number }
  | { k: 'gen'; cmp: Cmp; value: number }
  | { k: 'kind'; value: 0 | 1 | 2 }
  | { k: 'induced' }
  | { k: 'reason'; value: number }
  | { k: 'paused'; cmp: Cmp; percent: number; windowMSec: number }
  | { k: 'finding'; rule: string | null; windowMSec: number };

export interface Trigger {
  /** The trigger as written (normalized spacing): names captures and explains hits. */
  text: string;
  conditions: Condition[];
}

export interface TriggerHit {
  trigger: string;
  /** The GC that fired it (the newest GC for window and finding triggers). */
  gcNumber: number;
  gcIndex: number;
  /** The GC's pause start and end (ms since the trace's sync time). */
  gcStartMSec: number;
  gcEndMSec: number;
  /** What was measured, in words: "pause 412.3 ms > 200 ms". */
  detail: string;
}

const KINDS: Record<string, 0 | 1 | 2> = { blocking: 0, nonconcurrent: 0, background: 1, foreground: 2 };
const KIND_NAMES = ['blocking', 'background', 'foreground'];
export const DEFAULT_WINDOW_MSEC = 60_000;

function number(text: string, what: string, unit: 'time' | 'size' | 'none'): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|mb|gb|kb)?$/i.exec(text.trim());
  if (m === null) throw new TriggerSyntaxError(`cannot read "${text}" as ${what}`);
  const v = Number(m[1]);
  const u = (m[2] ?? '').toLowerCase();
  if (unit === 'time') {
    if (u === '' || u === 'ms') return v;
    if (u === 's') return v * 1000;
    if (u === 'm') return v * 60_000;
  } else if (unit === 'size') {
    if (u === '' || u === 'mb') return v;
    if (u === 'gb') return v * 1024;
    if (u === 'kb') return v / 1024;
  } else if (u === '') return v;
  throw new TriggerSyntaxError(`"${text}": ${what} cannot be in ${m[2]}`);
}

function window(text: string | undefined): number {
  if (text === undefined) return DEFAULT_WINDOW_MSEC;
  const w = number(text, 'a window', 'time');
  // A bare number is seconds here: "paused>10%/30" means 30 s.
  const ms = /^\d+(\.\d+)?$/.test(text.trim()) ? w * 1000 : w;
  if (ms < 1000 || ms > 24 * 3600_000) throw new TriggerSyntaxError(`a window of ${text} is outside 1 s – 24 h`);
  return ms;
}

function parseCondition(raw: string): Condition {
  const s = raw.trim();
  const lower = s.toLowerCase();
  if (lower === 'induced') return { k: 'induced' };
  const f = /^finding(?:=([a-z0-9-]+))?(?:\/(.+))?$/i.exec(s);
  if (f !== null) return { k: 'finding', rule: f[1]?.toLowerCase() ?? null, windowMSec: window(f[2]) };
  const m = /^([a-z-]+)\s*(>=|>|=)\s*(.+)$/i.exec(s);
  if (m === null)
    throw new TriggerSyntaxError(
      `cannot read the condition "${s}": expected e.g. pause>200ms, suspension>50ms, bgc-pause>20ms, gen=2, kind=blocking, induced, reason=AllocLarge, heap-after>2GB, paused>20%/60s or finding`,
    );
  const name = m[1]!.toLowerCase();
  const cmp = m[2] as Cmp;
  const arg = m[3]!.trim();
  switch (name) {
    case 'pause':
    case 'suspension':
    case 'bgc-pause':
      if (cmp === '=') throw new TriggerSyntaxError(`${name} needs > or >= (e.g. ${name}>100ms)`);
      return { k: name, cmp, value: number(arg, `a ${name === 'bgc-pause' ? 'background GC final pause' : name} time`, 'time') };
    case 'heap-after':
      if (cmp === '=') throw new TriggerSyntaxError('heap-after needs > or >= (e.g. heap-after>512MB)');
      return { k: 'heap-after', cmp, value: number(arg, 'a heap size', 'size') };
    case 'gen': {
      const v = number(arg, 'a generation', 'none');
      if (!Number.isInteger(v) || v > 2) throw new TriggerSyntaxError(`gen must be 0, 1 or 2, not ${arg}`);
      return { k: 'gen', cmp, value: v };
    }
    case 'kind': {
      const v = KINDS[arg.toLowerCase()];
      if (cmp !== '=' || v === undefined) throw new TriggerSyntaxError(`kind must be one of blocking, background, foreground (kind=blocking), not "${arg}"`);
      return { k: 'kind', value: v };
    }
    case 'reason': {
      if (cmp !== '=') throw new TriggerSyntaxError('reason takes = (e.g. reason=AllocLarge)');
      if (/^\d+$/.test(arg)) return { k: 'reason', value: Number(arg) };
      const hit = Object.entries(GC_REASON_NAMES).find(([, n]) => n.toLowerCase() === arg.toLowerCase());
      if (hit === undefined) throw new TriggerSyntaxError(`unknown GC reason "${arg}": one of ${Object.values(GC_REASON_NAMES).join(', ')}`);
      return { k: 'reason', value: Number(hit[0]) };
    }
    case 'paused': {
      const p = /^(\d+(?:\.\d+)?)\s*%(?:\s*\/\s*(.+))?$/.exec(arg);
      if (p === null || cmp === '=') throw new TriggerSyntaxError(`paused needs a percentage and an optional window: paused>20%/60s, not "${s}"`);
      const percent = Number(p[1]);
      if (percent <= 0 || percent >= 100) throw new TriggerSyntaxError(`paused>${percent}% can never fire: use a percentage between 0 and 100`);
      return { k: 'paused', cmp, percent, windowMSec: window(p[2]) };
    }
    default:
      throw new TriggerSyntaxError(`unknown condition "${name}": use pause, suspension, bgc-pause, gen, kind, induced, reason, heap-after, paused or finding`);
  }
}

/** Parses one trigger ("gen=2,kind=blocking,pause>100ms"). */
export function parseTrigger(text: string): Trigger {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) throw new TriggerSyntaxError('an empty trigger');
  const conditions = parts.map(parseCondition);
  if (conditions.some((c) => c.k === 'finding') && conditions.length > 1)
    throw new TriggerSyntaxError(`"${text}": a finding trigger stands alone (the finding is about a window, not one GC)`);
  return { text: parts.join(','), conditions };
}

/** The trigger a watch uses when none is given: a pause as long as PerfView users ask for first. */
export const DEFAULT_TRIGGER = 'pause>200ms';

const fmt = (v: number, unit: string): string => `${Number(v.toFixed(3))} ${unit}`;

function compare(cmp: Cmp, a: number, b: number): boolean {
  return cmp === '>' ? a > b : cmp === '>=' ? a >= b : a === b;
}

/**
 * Evaluates triggers GC by GC. Window conditions keep the GCs of their longest window (pause
 * start and length only).
 */
export class TriggerSet {
  readonly triggers: Trigger[];
  private readonly recent: { start: number; pause: number }[] = [];
  private readonly longestWindow: number;
  private firstGcMSec: number | null = null;

  constructor(triggers: Trigger[]) {
    this.triggers = triggers;
    this.longestWindow = Math.max(0, ...triggers.flatMap((t) => t.conditions.map((c) => (c.k === 'paused' ? c.windowMSec : 0))));
  }

  static parse(texts: readonly string[]): TriggerSet {
    return new TriggerSet((texts.length > 0 ? texts : [DEFAULT_TRIGGER]).map(parseTrigger));
  }

  /** Windows of finding triggers (the watcher diagnoses the GCs of the longest). */
  get findingWindowMSec(): number | null {
    const w = this.triggers.flatMap((t) => t.conditions.flatMap((c) => (c.k === 'finding' ? [c.windowMSec] : [])));
    return w.length > 0 ? Math.max(...w) : null;
  }

  /** The hits of one completed GC (at most one per trigger). */
  onGC(r: GcRecord): TriggerHit[] {
    if (!r.isComplete) return [];
    const start = r.pauseStartRelativeMSec;
    const end = start + r.pauseDurationMSec;
    this.firstGcMSec ??= start;
    if (this.longestWindow > 0) {
      this.recent.push({ start, pause: r.pauseDurationMSec });
      while (this.recent.length > 0 && this.recent[0]!.start + this.recent[0]!.pause < end - this.longestWindow) this.recent.shift();
    }
    const hits: TriggerHit[] = [];
    for (const t of this.triggers) {
      const details: string[] = [];
      let all = true;
      for (const c of t.conditions) {
        const d = this.check(c, r, end);
        if (d === null) {
          all = false;
          break;
        }
        details.push(d);
      }
      if (all && t.conditions.every((c) => c.k !== 'finding'))
        hits.push({ trigger: t.text, gcNumber: r.number, gcIndex: r.index, gcStartMSec: start, gcEndMSec: end, detail: details.join(', ') });
    }
    return hits;
  }

  /** Whether a condition holds for this GC; its measured value in words when it does. */
  private check(c: Condition, r: GcRecord, end: number): string | null {
    switch (c.k) {
      case 'pause':
        return compare(c.cmp, r.pauseDurationMSec, c.value) ? `pause ${fmt(r.pauseDurationMSec, 'ms')} ${c.cmp} ${fmt(c.value, 'ms')}` : null;
      case 'suspension':
        return compare(c.cmp, r.suspendDurationMSec, c.value) ? `suspension ${fmt(r.suspendDurationMSec, 'ms')} ${c.cmp} ${fmt(c.value, 'ms')}` : null;
      case 'bgc-pause':
        return r.bgcFinalPauseMSec !== null && compare(c.cmp, r.bgcFinalPauseMSec, c.value)
          ? `background GC final pause ${fmt(r.bgcFinalPauseMSec, 'ms')} ${c.cmp} ${fmt(c.value, 'ms')}`
          : null;
      case 'heap-after':
        return r.heapSizeAfterMB !== null && compare(c.cmp, r.heapSizeAfterMB, c.value)
          ? `heap after ${fmt(r.heapSizeAfterMB, 'MB')} ${c.cmp} ${fmt(c.value, 'MB')}`
          : null;
      case 'gen':
        return compare(c.cmp, r.generation, c.value) ? `gen${r.generation}` : null;
      case 'kind':
        return r.type === c.value ? KIND_NAMES[c.value]! : null;
      case 'induced':
        return INDUCED_REASONS.has(r.reason) ? `induced (${gcReasonName(r.reason)})` : null;
      case 'reason':
        return r.reason === c.value ? `reason ${gcReasonName(r.reason)}` : null;
      case 'paused': {
        if (this.firstGcMSec === null || end - this.firstGcMSec < c.windowMSec) return null;
        const p = pausedPercent(this.recent, end - c.windowMSec, end);
        return compare(c.cmp, p, c.percent) ? `${fmt(p, '%')} of the last ${fmt(c.windowMSec / 1000, 's')} paused ${c.cmp} ${c.percent} %` : null;
      }
      case 'finding':
        return null;
    }
  }

  /**
   * Finding triggers over a diagnosis of the last window: the warning findings' rule ids, and the
   * newest GC (to anchor the capture). One hit per trigger that matches.
   */
  onFindings(warnings: readonly { id: string; title: string }[], newest: GcRecord): TriggerHit[] {
    const hits: TriggerHit[] = [];
    for (const t of this.triggers) {
      const c = t.conditions[0];
      if (c?.k !== 'finding') continue;
      const f = warnings.find((w) => c.rule === null || w.id === c.rule);
      if (f === undefined) continue;
      const start = newest.pauseStartRelativeMSec;
      hits.push({
        trigger: t.text,
        gcNumber: newest.number,
        gcIndex: newest.index,
        gcStartMSec: start,
        gcEndMSec: start + newest.pauseDurationMSec,
        detail: `finding ${f.id} at warning level: ${f.title}`,
      });
    }
    return hits;
  }
}

/** % of [from, to] covered by pauses (each clipped to the window). */
export function pausedPercent(pauses: readonly { start: number; pause: number }[], from: number, to: number): number {
  if (to <= from) return 0;
  let sum = 0;
  for (const p of pauses) sum += Math.max(0, Math.min(to, p.start + p.pause) - Math.max(from, p.start));
  return (sum * 100) / (to - from);
}

/**
 * Cooldown and a maximum per hour (dotnet-monitor's ActionCount over a sliding hour): what keeps
 * the disk bounded when a trigger keeps firing. Times are wall-clock ms, given by the caller.
 */
export class CaptureLimiter {
  private readonly taken: number[] = [];
  constructor(
    readonly cooldownMs: number,
    readonly maxPerHour: number,
  ) {}

  /** Null when a capture may start now, else why not. */
  refusal(nowMs: number): string | null {
    while (this.taken.length > 0 && this.taken[0]! <= nowMs - 3600_000) this.taken.shift();
    const last = this.taken[this.taken.length - 1];
    if (last !== undefined && nowMs - last < this.cooldownMs) return `cooldown (${Math.ceil((this.cooldownMs - (nowMs - last)) / 1000)} s left)`;
    if (this.taken.length >= this.maxPerHour) return `${this.maxPerHour} captures in the last hour already`;
    return null;
  }

  take(nowMs: number): void {
    this.taken.push(nowMs);
  }
}
