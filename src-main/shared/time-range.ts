/**
 * A time range as the user types it, in the app's range box and after the CLI's `--range`:
 * "FROM:TO" in seconds since the trace started (the one clock of the app's axis and table, the
 * CLI's printed times and the reports: issue 39), either end open ("30:" is 30 s to the end).
 * One parser, so a range typed in one selects the same GCs in the other. Pure.
 */

/** The range in ms since the trace's start (an open end is ∓Infinity), or why the text is not one. */
export type ParsedTimeRange = { fromMSec: number; toMSec: number } | { error: string };

/** "10:40", "30:", ":2.5" → ms; a pasted "--range 10:40" (the app's "copy --range") is taken too. */
export function parseTimeRange(text: string): ParsedTimeRange {
  const m = /^\s*(?:--range(?:-[ab])?[\s=]+)?(\d+(?:\.\d+)?)?\s*:\s*(\d+(?:\.\d+)?)?\s*$/.exec(text);
  if (m === null || (m[1] === undefined && m[2] === undefined))
    return { error: `needs FROM:TO in seconds since the trace started (e.g. 10:40, or 30: for 30 s to the end), not "${text}"` };
  const from = m[1] === undefined ? Number.NEGATIVE_INFINITY : Number(m[1]) * 1000;
  const to = m[2] === undefined ? Number.POSITIVE_INFINITY : Number(m[2]) * 1000;
  if (!(from < to)) return { error: `"${text}": the range ends before it starts` };
  return { fromMSec: from, toMSec: to };
}
