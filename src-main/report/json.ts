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

/** Yields the report's JSON text in order; joined, the pieces equal JSON.stringify(rep, replacer, 2) + '\n'. */
export function* reportJsonPieces(rep: GcReport, replacer: Replacer): Generator<string, void, void> {
  const frame = JSON.stringify({ ...rep, gcs: MARK }, replacer, 2);
  const at = frame.indexOf(JSON.stringify(MARK));
  if (at < 0) throw new Error('report JSON: the GC list placeholder is missing');
  yield frame.slice(0, at);
  if (rep.gcs.length === 0) yield '[]';
  else {
    // Slices of the list are stringified as arrays at depth 0 ("[\n  {…},\n  {…}\n]"); the list
    // sits at depth 1, so the brackets are cut off and every line moves in by one level. JSON
    // strings never hold a raw newline, so every '\n' is formatting.
    for (let i = 0; i < rep.gcs.length; i += SLICE) {
      const text = JSON.stringify(rep.gcs.slice(i, i + SLICE), replacer, 2);
      yield `${i === 0 ? '[\n' : ',\n'}  ${text.slice(2, -2).replace(/\n/g, '\n  ')}`;
    }
    yield '\n  ]';
  }
  yield frame.slice(at + JSON.stringify(MARK).length) + '\n';
}
