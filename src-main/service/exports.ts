/**
 * The contract's exportSession: a session as CSV, JSON or HTML (the report of report/, the same
 * bytes `gcscope report --session` writes for CSV and HTML) or its raw trace; saved where the
 * desktop app asks, or returned for a browser download.
 */
import { closeSync, copyFileSync, existsSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { reportFromSession, reportInputFromSession } from '../recording/report-source.js';
import { buildReport, type GcReport } from '../report/model.js';
import { isFilterActive, passesFilter } from '../shared/gc-filter.js';
import { csvReportPieces, renderCsvReport } from '../report/csv.js';
import { htmlReportPieces, renderHtmlReport } from '../report/html.js';
import type { ExportFormat, ExportResult, ExportScope } from '../shared/contract.js';
import type { SessionInfo } from '../shared/session.js';
import type { Database } from '../store/db.js';
import { ApiFailure } from './errors.js';

export interface ExportOptions {
  mode: 'desktop' | 'browser';
  /** Desktop: ask where to save; null when cancelled. */
  pickSavePath?: (defaultName: string) => Promise<string | null>;
}

export async function exportSession(db: Database, s: SessionInfo, format: ExportFormat, opts: ExportOptions, scope?: ExportScope): Promise<ExportResult> {
  const base = s.name.replace(/[^\w.-]+/g, '_').replace(/\.(nettrace|zip|netperf)$/i, '');
  // A range in the name, as seconds since the trace started (the app's and the CLI's --range clock).
  const safe =
    scope === undefined || format === 'nettrace'
      ? base
      : `${base}_${seconds(scope.fromMSec)}-${seconds(scope.toMSec)}s${scope.filter !== null && isFilterActive(scope.filter) ? '_filtered' : ''}`;
  const pick = opts.mode === 'desktop' ? opts.pickSavePath : undefined;
  /** Desktop: asks where to save `fileName`, then `write`s it there (nothing when cancelled). */
  const save = async (fileName: string, write: (path: string) => void): Promise<ExportResult> => {
    const path = await pick!(fileName);
    if (path !== null) write(path);
    return { fileName, path, content: null, encoding: null };
  };
  if (format === 'nettrace') {
    const trace = s.tracePath;
    if (trace === null || !existsSync(trace)) throw new ApiFailure('not-found', 'The raw trace of this session is no longer on disk.');
    const fileName = basename(trace);
    // Copied file to file, never read into memory: raw traces run to gigabytes (reading one
    // whole held it all in the app's main process, and a file over 2 GB cannot be read at once).
    // Saved onto itself: nothing to do (a copy onto the source could empty it).
    if (pick !== undefined) {
      return save(fileName, (path) => {
        if (resolve(path) !== resolve(trace)) copyFileSync(trace, path);
      });
    }
    const size = statSync(trace).size;
    if (size > 256e6 && opts.mode === 'browser')
      throw new ApiFailure('too-large', `The raw trace is ${(size / 1e6).toFixed(0)} MB; copy it from ${trace} instead.`);
    return { fileName, path: null, content: readFileSync(trace).toString('base64'), encoding: 'base64' };
  }
  const rep = scope === undefined ? await reportFromSession(db, s.id) : await scopedReport(db, s.id, scope);
  const fileName = `${safe}.${format}`;
  if (pick !== undefined) {
    // CSV and HTML saved as they are produced, as the CLI writes them: a long session's are tens of MB.
    if (format === 'json') return save(fileName, (path) => writeFileSync(path, JSON.stringify(rep, null, 2)));
    return save(fileName, (path) => writePieces(path, format === 'csv' ? csvReportPieces(rep) : htmlReportPieces(rep)));
  }
  return {
    fileName,
    path: null,
    content: format === 'csv' ? renderCsvReport(rep) : format === 'html' ? renderHtmlReport(rep) : JSON.stringify(rep, null, 2),
    encoding: 'utf8',
  };
}

/**
 * The report of what the session view shows (issue 39: the exports ignored the selected range and
 * filters): the GCs whose pause starts in the range — the table's own predicate
 * (src-renderer/state/table-rows.ts computeRows) — that pass the table's filter (shared/gc-filter.ts),
 * with the summary, rollups and findings of those GCs and the allocation evidence of the range.
 */
async function scopedReport(db: Database, sessionId: number, scope: ExportScope): Promise<GcReport> {
  const range = { from: scope.fromMSec, to: scope.toMSec };
  const input = await reportInputFromSession(db, sessionId, range);
  const f = scope.filter !== null && isFilterActive(scope.filter) ? scope.filter : null;
  const gcs = input.gcs.filter(
    (g) =>
      g.pauseStartRelativeMSec >= range.from &&
      g.pauseStartRelativeMSec <= range.to &&
      (f === null || passesFilter(f, g.generation, g.type, g.reason, g.pauseDurationMSec, g.number)),
  );
  return buildReport(input.src, gcs);
}

const seconds = (ms: number): string => String(Number((ms / 1000).toFixed(3)));

/** Writes text pieces to a new file at `path`, in order. */
function writePieces(path: string, pieces: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    for (const p of pieces) writeSync(fd, p);
  } finally {
    closeSync(fd);
  }
}
