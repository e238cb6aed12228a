/**
 * Pause strata (insights §5.2.2): gen0, gen1, blocking gen2, background gen2 (its own short pauses),
 * foreground GCs (gen0/gen1 during a background GC) and induced GCs (GC.Collect: the app's choice,
 * kept apart so they do not pollute the others). Each GC is in exactly one stratum.
 */
import { isInducedReason } from '../shared/gc-record.js';
import type { PauseStratum } from '../shared/comparison.js';

export const STRATA: readonly { id: PauseStratum; label: string }[] = [
  { id: 'gen0', label: 'gen0' },
  { id: 'gen1', label: 'gen1' },
  { id: 'gen2', label: 'gen2 blocking' },
  { id: 'bgc', label: 'background gen2' },
  { id: 'foreground', label: 'foreground' },
  { id: 'induced', label: 'induced' },
];

/** GCType codes (TraceEvent's GCType): 0 non-concurrent (blocking), 1 background, 2 foreground. */
const BACKGROUND = 1;
const FOREGROUND = 2;

export function stratumOf(generation: number, type: number, reason: number): PauseStratum {
  if (isInducedReason(reason)) return 'induced';
  if (type === BACKGROUND) return 'bgc';
  if (type === FOREGROUND) return 'foreground';
  return generation === 0 ? 'gen0' : generation === 1 ? 'gen1' : 'gen2';
}

export function stratumLabel(s: PauseStratum): string {
  return STRATA.find((x) => x.id === s)!.label;
}
