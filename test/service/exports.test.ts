/**
 * Exporting a session's raw trace from the desktop app: the file is copied to where the user
 * saves it, byte for byte, without being read into the app's memory (raw traces run to
 * gigabytes); saving it onto itself leaves it intact; a browser download of a trace over
 * 256 MB is refused before anything is read.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSession } from '../../src-main/service/exports.js';
import type { SessionInfo } from '../../src-main/shared/session.js';
import type { Database } from '../../src-main/store/db.js';
import { traceBytes } from '../helpers/fixtures.js';

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
  it('saves a byte-identical copy where the user picked, under the trace\'s own name', async () => {
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
