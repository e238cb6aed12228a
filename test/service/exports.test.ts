/**
 * Exporting a session from the desktop app. The raw trace is copied to where the user saves it,
 * byte for byte, without being read into the app's memory (raw traces run to gigabytes); saving
 * it onto itself leaves it intact; a browser download of a trace over 256 MB is refused before
 * anything is read. CSV and HTML are written as they are produced and are the report's text
 * exactly (what a browser download carries, and what `gcscope report --session` writes).
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { reportFromSession } from '../../src-main/recording/report-source.js';
import { renderCsvReport } from '../../src-main/report/csv.js';
import { renderHtmlReport } from '../../src-main/report/html.js';
import { exportSession } from '../../src-main/service/exports.js';
import { Database } from '../../src-main/store/db.js';
import { getSession } from '../../src-main/store/sessions.js';
import type { SessionInfo } from '../../src-main/shared/session.js';
import { TRACES, traceBytes } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'service-exports');
const TRACE = join(DIR, 'recorded.nettrace');
// Raw exports never touch the database.
const NO_DB = undefined as unknown as Database;
const session = (tracePath: string): SessionInfo => ({ id: 1, name: 'recorded.nettrace', tracePath }) as SessionInfo;

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(TRACE, traceBytes('problem-healthy.nettrace.zip'));
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('exporting the raw trace', () => {
  it("saves a byte-identical copy where the user picked, under the trace's own name", async () => {
    const to = join(DIR, 'saved.nettrace');
    let offered = '';
    const r = await exportSession(NO_DB, session(TRACE), 'nettrace', { mode: 'desktop', pickSavePath: async (name) => ((offered = name), to) });
    expect(offered).toBe('recorded.nettrace');
    expect(r).toEqual({ fileName: 'recorded.nettrace', path: to, content: null, encoding: null });
    expect(readFileSync(to).equals(readFileSync(TRACE))).toBe(true);
  });

  it('saved onto itself, the trace is left whole', async () => {
    const before = readFileSync(TRACE);
    const r = await exportSession(NO_DB, session(TRACE), 'nettrace', { mode: 'desktop', pickSavePath: async () => TRACE });
    expect(r.path).toBe(TRACE);
    expect(readFileSync(TRACE).equals(before)).toBe(true);
  });

  it('a cancelled save writes nothing', async () => {
    const r = await exportSession(NO_DB, session(TRACE), 'nettrace', { mode: 'desktop', pickSavePath: async () => null });
    expect(r).toEqual({ fileName: 'recorded.nettrace', path: null, content: null, encoding: null });
  });

  it('a browser download of a trace over 256 MB is refused with where to copy it from', async () => {
    // A sparse file: 300 MB long, no disk blocks.
    const big = join(DIR, 'big.nettrace');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 300e6);
    closeSync(fd);
    expect(statSync(big).size).toBe(300e6);
    await expect(exportSession(NO_DB, session(big), 'nettrace', { mode: 'browser' })).rejects.toThrow(/300 MB; copy it from .*big\.nettrace/);
  });

  it('a browser download of a smaller trace carries it base64-encoded', async () => {
    const r = await exportSession(NO_DB, session(TRACE), 'nettrace', { mode: 'browser' });
    expect(r.encoding).toBe('base64');
    expect(Buffer.from(r.content!, 'base64').equals(readFileSync(TRACE))).toBe(true);
  });
});

describe('exporting the report', () => {
  it("CSV and HTML saved from the desktop app are the report's text, and what a download carries", async () => {
    const db = await Database.open(join(DIR, 'exports.db'));
    try {
      // 388 GCs: the CSV and the HTML table are written in pieces of 512 rows and less.
      const { sessionId } = await importTrace(db, TRACES + 'problem-growing-live-set.nettrace.zip');
      const s = await getSession(db, sessionId);
      const rep = await reportFromSession(db, sessionId);
      for (const [format, text] of [
        ['csv', renderCsvReport(rep)],
        ['html', renderHtmlReport(rep)],
      ] as const) {
        const to = join(DIR, `saved.${format}`);
        const saved = await exportSession(db, s, format, { mode: 'desktop', pickSavePath: async () => to });
        expect(saved.path).toBe(to);
        expect(readFileSync(to, 'utf8')).toBe(text);
        const download = await exportSession(db, s, format, { mode: 'browser' });
        expect(download.content).toBe(text);
      }
      expect(renderCsvReport(rep).split('\n')).toHaveLength(388 + 2);
      // Past the 512-row pieces: 1,300 GCs (the session's, repeated) give every row once, in order.
      const many = { ...rep, gcs: Array.from({ length: 1300 }, (_, i) => rep.gcs[i % rep.gcs.length]!) };
      const lines = renderCsvReport(many).split('\n');
      const one = renderCsvReport(rep).split('\n');
      expect(lines).toHaveLength(1300 + 2);
      expect(lines[0]).toBe(one[0]);
      for (let i = 0; i < 1300; i++) expect(lines[i + 1], `row ${i}`).toBe(one[(i % 388) + 1]);
      expect(lines[1301]).toBe('');
      const html = renderHtmlReport(many);
      expect(html.match(/<tr class="(g\d|incomplete)">/g)).toHaveLength(1300);
      expect(html.endsWith('</body></html>\n')).toBe(true);
    } finally {
      await db.close();
    }
  });

  it("with a scope, the export holds the range's GCs that pass the table's filter, and its name says so (issue 39)", async () => {
    const db = await Database.open(join(DIR, 'exports-scope.db'));
    try {
      const { sessionId } = await importTrace(db, TRACES + 'problem-growing-live-set.nettrace.zip');
      const s = await getSession(db, sessionId);
      const all = (await reportFromSession(db, sessionId)).gcs;
      const from = all[100]!.pauseStartRelativeMSec;
      const to = all[300]!.pauseStartRelativeMSec;
      const filter = {
        generations: [true, true, false] as [boolean, boolean, boolean],
        kinds: [true, true, true] as [boolean, boolean, boolean],
        reason: -1,
        minPauseMSec: 0,
      };
      const r = await exportSession(db, s, 'json', { mode: 'browser' }, { fromMSec: from, toMSec: to, filter });
      const want = all.filter((g) => g.pauseStartRelativeMSec >= from && g.pauseStartRelativeMSec <= to && g.generation !== 2).map((g) => g.number);
      expect(want.length).toBeGreaterThan(50);
      expect(want.length).toBeLessThan(201);
      const got = (JSON.parse(r.content!) as { gcs: { number: number }[]; summary: { gcCount: number } }).gcs.map((g) => g.number);
      expect(got).toEqual(want);
      expect(r.fileName).toMatch(/_[\d.]+-[\d.]+s_filtered\.json$/);
      // A range alone: every GC in it.
      const csv = await exportSession(db, s, 'csv', { mode: 'browser' }, { fromMSec: from, toMSec: to, filter: null });
      expect(csv.content!.trimEnd().split('\n')).toHaveLength(201 + 1);
    } finally {
      await db.close();
    }
  });
});
