/**
 * The report as JSON (`gcscope report --format json`), in pieces: the text is exactly
 * `JSON.stringify(report, replacer, 2) + '\n'`, but produced one GC at a time, so a trace with
 * tens of thousands of GCs never holds its whole JSON text (and the copy writing it makes) in
 * memory at once.
 */
import type { GcReport } from './model.js';

type Replacer = (key: string, value: unknown) => unknown;

/** GCs per stringified slice (a few hundred KB of text). */
const SLICE = 256;

/** Stands in for the GC list while the rest of the report is stringified. */
const MARK = '\u0000gcscope-gcs\u0000';

/**
 * Yields the report's JSON text in order; joined, the pieces equal JSON.stringify(rep, replacer, 2) + '\n'.
 * The replacer is applied to everything but the GC rows: a GcRecord holds only numbers, strings,
 * booleans and null (the column registry's value types), which a replacer for values JSON cannot
 * hold (the CLI's turns bigints into strings) leaves as they are; called for every key of every
 * row, it cost a fifth of the JSON's time.
 */
export function* reportJsonPieces(rep: GcReport, replacer: Replacer): Generator<string, void, void> {
  const frame = JSON.stringify({ ...rep, gcs: MARK }, replacer, 2);
  const at = frame.indexOf(JSON.stringify(MARK));
  if (at < 0) throw new Error('report JSON: the GC list placeholder is missing');
  yield frame.slice(0, at);
  if (rep.gcs.length === 0) yield '[]';
  else {
    // A slice stringified as the list of a top-level key sits at the list's depth in the report,
    // so its lines are already indented as they must be: only its first and last lines are cut.
    for (let i = 0; i < rep.gcs.length; i += SLICE) {
      const text = JSON.stringify({ gcs: rep.gcs.slice(i, i + SLICE) }, undefined, 2);
      yield `${i === 0 ? '[\n' : ',\n'}${text.slice(SLICE_HEAD.length, -SLICE_TAIL.length)}`;
    }
    yield '\n  ]';
  }
  yield frame.slice(at + JSON.stringify(MARK).length) + '\n';
}

/** What JSON.stringify({ gcs: [...] }, undefined, 2) puts around the rows. */
const SLICE_HEAD = '{\n  "gcs": [\n';
const SLICE_TAIL = '\n  ]\n}';
