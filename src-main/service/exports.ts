/**
 * The contract's exportSession: a session as CSV, JSON or HTML (the report of report/, the same
 * bytes `gcscope report --session` writes for CSV and HTML) or its raw trace; saved where the
 * desktop app asks, or returned for a browser download.
 */
import { closeSync, copyFileSync, existsSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { reportFromSession } from '../recording/report-source.js';
import { csvReportPieces, renderCsvReport } from '../report/csv.js';
import { htmlReportPieces, renderHtmlReport } from '../report/html.js';
import type { ExportFormat, ExportResult } from '../shared/contract.js';
import type { SessionInfo } from '../shared/session.js';
import type { Database } from '../store/db.js';
import { ApiFailure } from './errors.js';

export interface ExportOptions {
  mode: 'desktop' | 'browser';
  /** Desktop: ask where to save; null when cancelled. */
  pickSavePath?: (defaultName: string) => Promise<string | null>;
}

export async function exportSession(db: Database, s: SessionInfo, format: ExportFormat, opts: ExportOptions): Promise<ExportResult> {
  const safe = s.name.replace(/[^\w.-]+/g, '_').replace(/\.(nettrace|zip|netperf)$/i, '');
  let fileName: string;
  let text: string | undefined;
  let raw: Buffer | undefined;
  if (format === 'nettrace') {
    if (s.tracePath === null || !existsSync(s.tracePath)) throw new ApiFailure('not-found', 'The raw trace of this session is no longer on disk.');
    fileName = basename(s.tracePath);
    if (opts.mode === 'desktop' && opts.pickSavePath !== undefined) {
      // Copied file to file, never read into memory: raw traces run to gigabytes (reading one
      // whole held it all in the app's main process, and a file over 2 GB cannot be read at once).
      const path = await opts.pickSavePath(fileName);
      if (path === null) return { fileName, path: null, content: null, encoding: null };
      // Saved onto itself: nothing to do (a copy onto the source could empty it).
      if (resolve(path) !== resolve(s.tracePath)) copyFileSync(s.tracePath, path);
      return { fileName, path, content: null, encoding: null };
    }
    const size = statSync(s.tracePath).size;
    if (size > 256e6 && opts.mode === 'browser') throw new ApiFailure('too-large', `The raw trace is ${(size / 1e6).toFixed(0)} MB; copy it from ${s.tracePath} instead.`);
    raw = readFileSync(s.tracePath);
  } else {
    const rep = await reportFromSession(db, s.id);
    fileName = `${safe}.${format}`;
    if (format !== 'json' && opts.mode === 'desktop' && opts.pickSavePath !== undefined) {
      // Saved as it is produced, as the CLI writes it: a long session's CSV or HTML is tens of MB.
      const path = await opts.pickSavePath(fileName);
      if (path === null) return { fileName, path: null, content: null, encoding: null };
      writePieces(path, format === 'csv' ? csvReportPieces(rep) : htmlReportPieces(rep));
      return { fileName, path, content: null, encoding: null };
    }
    text = format === 'csv' ? renderCsvReport(rep) : format === 'html' ? renderHtmlReport(rep) : JSON.stringify(rep, null, 2);
  }
  if (opts.mode === 'desktop' && opts.pickSavePath !== undefined) {
    const path = await opts.pickSavePath(fileName);
    if (path === null) return { fileName, path: null, content: null, encoding: null };
    writeFileSync(path, raw ?? text!);
    return { fileName, path, content: null, encoding: null };
  }
  return raw !== undefined ? { fileName, path: null, content: raw.toString('base64'), encoding: 'base64' } : { fileName, path: null, content: text!, encoding: 'utf8' };
}

/** Writes text pieces to a new file at `path`, in order. */
function writePieces(path: string, pieces: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    for (const p of pieces) writeSync(fd, p);
  } finally {
    closeSync(fd);
  }
}
