/**
 * Format detection by content (trace/detect.ts, trace/looks-like.ts): a stream no format
 * recognizes fails with 'bad-magic' at offset 0, saying what it looks like; one cut short inside a
 * signature is the format's own truncation; a signature split across chunks is still recognized.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { readTraceFile } from '../../src-main/recording/trace-file.js';
import { openTraceReader } from '../../src-main/recording/trace-formats.js';
import { looksLike } from '../../src-main/trace/looks-like.js';
import { traceBytes } from '../helpers/fixtures.js';

const DIR = mkdtempSync(join(tmpdir(), 'gcscope-detect-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('what an unknown file looks like', () => {
  const etl = new Uint8Array(0x100);
  new DataView(etl.buffer).setUint32(0, 0x10000, true);
  new DataView(etl.buffer).setUint32(4, 0x200, true);
  etl[0x4a] = 2;
  etl[0x4b] = 0xc0;
  it.each([
    [zipSync({ 'a.txt': enc('x') }), 'a ZIP archive'],
    [gzipSync(enc('hello')), 'a gzip file'],
    [enc('%PDF-1.7\n…'), 'a PDF document'],
    [enc('  {"traceEvents": []}'), 'JSON'],
    [enc('<?xml version="1.0"?><x/>'), 'XML or HTML'],
    [enc('Time,Pid,Event\n1,2,3\n'), 'text'],
    [etl, 'a Windows ETW trace (.etl)'],
    [enc('SQLite format 3\0……'), 'an SQLite database'],
    [Uint8Array.of(0, 1, 2, 3, 0xfe, 0xed, 0xfa, 0xce, 9), 'binary data of an unknown kind (first bytes 00 01 02 03 fe ed fa ce)'],
  ])('%#: %s', (bytes, what) => {
    expect(looksLike(bytes)).toContain(what);
  });

  it('a file: bad-magic at offset 0 naming what it is and what GCScope reads', async () => {
    const f = join(DIR, 'trace.json');
    writeFileSync(f, '{"not": "a trace"}');
    await expect(readTraceFile(f, {})).rejects.toMatchObject({
      code: 'bad-magic',
      offset: 0,
      message: 'not a trace GCScope can read: it looks like JSON; GCScope reads .nettrace, .netperf, .etl and .etl.zip (at byte offset 0)',
    });
  });

  it('a zip whose one entry is another zip', async () => {
    const f = join(DIR, 'nested.zip');
    writeFileSync(f, zipSync({ 'inner.zip': zipSync({ 't.nettrace': enc('x') }) }));
    await expect(readTraceFile(f, {})).rejects.toMatchObject({ code: 'bad-magic', message: expect.stringContaining('it looks like a ZIP archive') });
  });
});

describe('detection over chunks', () => {
  it('a NetTrace signature split into one-byte chunks is still recognized', () => {
    const bytes = traceBytes('problem-healthy.nettrace.zip');
    let events = 0;
    const r = openTraceReader({ onEvent: () => events++ }, { sort: false });
    for (let i = 0; i < 32; i++) r.push(bytes.subarray(i, i + 1));
    r.push(bytes.subarray(32));
    r.end();
    expect(r.state).toBe('complete');
    expect(r.formatName).toMatch(/^NetTrace V4/);
    expect(events).toBe(r.eventCount);
    expect(events).toBeGreaterThan(1000);
  });

  it("a stream cut inside the signature is the format's truncation, not bad-magic", () => {
    const r = openTraceReader({});
    r.push(enc('Nettr'));
    r.end();
    expect(r.state).toBe('truncated');
    expect(r.error?.code).toBe('truncated');
  });
});
