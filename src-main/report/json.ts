/**
 * The report as JSON (`gcscope report --format json`), in pieces: the text is exactly
 * `JSON.stringify(report, replacer, 2) + '\n'`, but produced one GC at a time, so a trace with
 * tens of thousands of GCs never holds its whole JSON text (and the copy writing it makes) in
 * memory at once.
 */
import type { GcReport } from './model.js';

type Replacer = (key: string, value: unknown) => unknown;

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
    // The list sits at depth 1, so each element is indented by two levels (4 spaces) and its
    // own lines by that much more; JSON strings never hold a raw newline, so every '\n' in an
    // element's text is formatting.
    for (let i = 0; i < rep.gcs.length; i++) {
      const el = JSON.stringify(rep.gcs[i], replacer, 2).replace(/\n/g, '\n    ');
      yield `${i === 0 ? '[\n' : ',\n'}    ${el}`;
    }
    yield '\n  ]';
  }
  yield frame.slice(at + JSON.stringify(MARK).length) + '\n';
}
