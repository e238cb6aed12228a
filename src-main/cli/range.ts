/**
 * The `--range FROM:TO` options of `diagnose`, `allocs` and `compare` (`--range-a`, `--range-b`):
 * parsing the seconds the user wrote, and closing an open range on a trace's events for the
 * diagnosis. One module the commands share, so none imports another command's module.
 */
import { closeRange } from '../service/comparisons.js';
import { formatDecimal } from '../shared/format.js';
import { parseTimeRange } from '../shared/time-range.js';
import { CliError, EXIT_BAD_INPUT } from './output.js';

/** "10:40" (seconds since the trace's start, as the app's axis and range box count) → ms; either end may be empty. */
export function parseRange(text: string | undefined, flag: string): { fromMSec: number; toMSec: number } | null {
  if (text === undefined) return null;
  const r = parseTimeRange(text);
  if ('error' in r) throw new CliError(`${flag} ${r.error}`, EXIT_BAD_INPUT);
  return r;
}

/** "1.5 s": ms as seconds, to the millisecond. */
export function seconds(msec: number): string {
  // To the millisecond, trailing zeros dropped ("1.5 s", "2 s").
  return `${formatDecimal(msec / 1000, 3).replace(/\.?0+$/, '')} s`;
}

/**
 * The asked range with finite ends for the diagnosis (its windows need them): an open start is
 * the trace's first event, an open end its last — what a whole-trace diagnosis uses. A range
 * that misses the trace's events altogether is a mistake (seconds taken for minutes, say), not
 * a clean bill of health: exit 2 saying where the trace's events lie.
 */
export function closeDiagnosisRange(
  asked: { fromMSec: number; toMSec: number },
  text: string,
  columns: Parameters<typeof closeRange>[0],
  src: { firstEventMSec: number | null; lastEventMSec: number | null },
  flag = '--range',
): { fromMSec: number; toMSec: number } {
  // The GCs' own span, for a source without event times.
  const gcs = closeRange(columns, { fromMSec: Number.NEGATIVE_INFINITY, toMSec: Number.POSITIVE_INFINITY })!;
  const first = src.firstEventMSec ?? gcs.fromMSec;
  const last = Math.max(src.lastEventMSec ?? Number.NEGATIVE_INFINITY, gcs.toMSec);
  if (asked.fromMSec > last || asked.toMSec < first) {
    throw new CliError(
      `${flag} ${text}: the trace's events run from ${seconds(first)} to ${seconds(last)} since it started; give a range that overlaps them`,
      EXIT_BAD_INPUT,
    );
  }
  return { fromMSec: Number.isFinite(asked.fromMSec) ? asked.fromMSec : first, toMSec: Number.isFinite(asked.toMSec) ? asked.toMSec : last };
}
