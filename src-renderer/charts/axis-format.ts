/**
 * Axis tick labels with one unit and one precision per axis (docs/ui.md "Numbers people can trust"):
 * the unit comes from the largest tick, the number of decimals from the tick step, so an axis
 * reads "0 ms, 500 ms, 1,000 ms" or "0.0 s, 0.5 s, 1.0 s", never "0.00 ms … 1.00 s". Pure.
 */
import { formatFixed } from '../../src-main/shared/format.js';

interface Unit {
  /** Values are divided by this. */
  div: number;
  suffix: string;
}

const TIME_MS: readonly [number, Unit][] = [
  [1000, { div: 1000, suffix: 's' }],
  [1, { div: 1, suffix: 'ms' }],
  [0, { div: 0.001, suffix: 'µs' }],
];
const SIZE_MB: readonly [number, Unit][] = [
  [1_000_000, { div: 1_000_000, suffix: 'TB' }],
  [1000, { div: 1000, suffix: 'GB' }],
  [1, { div: 1, suffix: 'MB' }],
  [0, { div: 0.001, suffix: 'KB' }],
];

function ticks(splits: readonly number[], units: readonly [number, Unit][]): string[] {
  const finite = splits.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return splits.map(() => '');
  const top = Math.max(...finite.map(Math.abs));
  const unit = units.find(([min]) => top >= min)?.[1] ?? units[units.length - 1]![1];
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < finite.length; i++) step = Math.min(step, Math.abs(finite[i]! - finite[i - 1]!));
  if (!Number.isFinite(step) || step === 0) step = top === 0 ? 1 : top;
  // As many decimals as the step needs to be exact (0.25 s → 2), at most 6 (a 1 ms window 3.86 s
  // into a session has ticks 0.1 ms apart: "3.8612 s", not nine times "3.861 s").
  const u = step / unit.div;
  let digits = 0;
  while (digits < 6 && Math.abs(u * 10 ** digits - Math.round(u * 10 ** digits)) > 1e-6 * 10 ** digits) digits++;
  return splits.map((v) => (Number.isFinite(v) ? `${formatFixed(v / unit.div, digits)} ${unit.suffix}` : ''));
}

/** Ticks of a duration axis in milliseconds. */
export function msTicks(splits: readonly number[]): string[] {
  return ticks(splits, TIME_MS);
}

/** Ticks of the time axis in seconds since the trace's start. */
export function secondsTicks(splits: readonly number[]): string[] {
  return ticks(
    splits.map((s) => s * 1000),
    TIME_MS,
  );
}

/** Ticks of a size axis in MB (10^6 bytes). */
export function mbTicks(splits: readonly number[]): string[] {
  return ticks(splits, SIZE_MB);
}

/** Ticks of a rate axis in MB/s. */
export function rateTicks(splits: readonly number[]): string[] {
  return ticks(splits, SIZE_MB).map((s) => (s === '' ? s : `${s}/s`));
}

export function percentTicks(splits: readonly number[]): string[] {
  return ticks(splits, [[0, { div: 1, suffix: '%' }]]);
}

/** The cursor's time (seconds since the start) with a unit and full precision: "12.345 s". */
export function cursorTime(sec: number | null | undefined): string {
  if (sec === null || sec === undefined || !Number.isFinite(sec)) return '–';
  return Math.abs(sec) < 1 ? `${formatFixed(sec * 1000, 1)} ms` : `${formatFixed(sec, 3)} s`;
}
