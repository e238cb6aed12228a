/**
 * PerfView's .etl.zip through the one file path (recording/trace-file.ts): the zip's one .etl is
 * the trace whatever else it holds; a zip with several fails in one line naming them, and
 * `entry` picks one; the format is found by content.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { constants as zlibConstants, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readTraceFile } from '../../src-main/recording/trace-file.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { etlBytes } from './helpers.js';

const DIR = mkdtempSync(join(tmpdir(), 'gcscope-etl-zip-'));

describe('PerfView .etl.zip files', () => {
  it('opens the .etl of a PerfView zip that also holds LogFile.txt', async () => {
    let events = 0;
    const r = await readTraceFile(`${FIXTURES}etl/net.4.5.2.x64.etl.zip`, { onEvent: () => void events++ }, { sort: false });
    expect(r.state).toBe('complete');
    expect(r.formatName).toBe('ETL (Windows build 9200, 64-bit)');
    expect(events).toBe(179_474);
    expect(r.processes?.find((p) => p.processId === 3676)?.name).toBe('Test.x64.exe');
  });

  it('a zip with two .etl files fails in one line naming both, and entry opens either', async () => {
    const f = join(DIR, 'two.etl.zip');
    writeFileSync(
      f,
      zipSync({
        'a/PerfViewData.etl': etlBytes('gcevents.etl.zip'),
        'LogFile.txt': new TextEncoder().encode('log'),
        'b/PerfViewData.clrRundown.etl': etlBytes('gcrundownevents.etl.zip'),
      }),
    );
    await expect(readTraceFile(f, {})).rejects.toMatchObject({
      code: 'zip-multiple',
      message: expect.stringMatching(
        /^[^\n]*holds 2 traces \("a\/PerfViewData\.etl", "b\/PerfViewData\.clrRundown\.etl"\); choose one with --entry NAME[^\n]*$/,
      ),
    });
    const second = await readTraceFile(f, {}, { entry: 'b/PerfViewData.clrRundown.etl' });
    expect(second.state).toBe('complete');
    expect(second.trace?.keyValues['LogFileName']).toMatch(/clrRundown/);
    const byName = await readTraceFile(f, {}, { entry: 'PerfViewData.etl' });
    expect(byName.trace?.keyValues['LogFileName']).toMatch(/PerfViewData\.etl$/);
    await expect(readTraceFile(f, {}, { entry: 'missing.etl' })).rejects.toMatchObject({
      code: 'zip-no-entry',
      message: expect.stringContaining('no entry named "missing.etl"'),
    });
  });

  it('a zip whose deflated trace is damaged fails in one line as a corrupt zip, after delivering what came before the damage', async () => {
    const etl = etlBytes('net.4.5.2.x64.etl.zip');
    // The whole trace, deflated and sync-flushed (the stream ends on a byte boundary, not final),
    // then a block of type 3, which no deflate encoder writes: the inflater refuses it.
    const deflated = deflateRawSync(etl, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    const stream = new Uint8Array(deflated.length + 4);
    stream.set(deflated);
    stream[deflated.length] = 0x07; // BFINAL 1, BTYPE 11
    // A zip of it: stored by fflate, then marked deflated (method 8) in the local header and the central directory.
    const zip = zipSync({ 'PerfViewData.etl': [stream, { level: 0 }] });
    const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    v.setUint16(8, 8, true);
    v.setUint32(22, etl.length, true);
    let cd = zip.length - 22;
    while (v.getUint32(cd, true) !== 0x02014b50) cd--;
    v.setUint16(cd + 10, 8, true);
    v.setUint32(cd + 24, etl.length, true);
    const f = join(DIR, 'damaged.etl.zip');
    writeFileSync(f, zip);
    let events = 0;
    await expect(readTraceFile(f, { onEvent: () => void events++ }, { sort: false })).rejects.toMatchObject({
      code: 'zip-corrupt',
      message: expect.stringMatching(/^[^\n]*damaged\.etl\.zip: the zip is corrupt \([^\n]*block type[^\n]*\)$/),
    });
    // The trace's events came through before the damage (all but those of the buffers the reader
    // still held: a failed read is not ended).
    expect(events).toBeGreaterThan(170_000);
  });

  it('a plain .etl file is read by content', async () => {
    const f = join(DIR, 'renamed.bin');
    writeFileSync(f, readFileSync(`${FIXTURES}etl/SelfDescribingSingleEvent.etl`));
    const r = await readTraceFile(f, {});
    expect(r.state).toBe('complete');
    expect(r.blockCounts).toEqual({ buffers: 3, 'compressed buffers': 2 });
  });
});
