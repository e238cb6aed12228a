/**
 * Every real trace in test/fixtures decodes completely, with the event totals and header fields
 * of raw-event-counts.json (an independent decoder's counts, cross-checked against PerfView for
 * the GC events; see PROVENANCE.md), and the NetPerf V2 file is refused with a typed error.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UnsupportedVersionError } from '../../src-main/nettrace/errors.js';
import { readTraceFile } from '../../src-main/recording/trace-file.js';
import { ALL_TRACES, FIXTURES, TRACES, traceBytes, unzippedName } from '../helpers/fixtures.js';
import { decode } from '../helpers/decode.js';

interface RawCounts {
  file: string;
  totalEvents: number;
  pointerSize: number;
  pid: number;
  numProcs: number;
  qpcFreq: number;
  syncTimeQPC: number;
  format: string;
  blocks: Record<string, number>;
}
const raw = (JSON.parse(readFileSync(FIXTURES + 'baselines/raw-event-counts.json', 'utf8')) as { files: RawCounts[] }).files;

describe('every fixture trace decodes', () => {
  for (const name of ALL_TRACES) {
    it(`${name}: complete, with the expected header, event total and format`, () => {
      const d = decode(traceBytes(name), [65536]);
      expect(d.error).toBeUndefined();
      expect(d.state).toBe('complete');
      const exp = raw.find((f) => f.file === unzippedName(name))!;
      expect(d.events.length).toBe(exp.totalEvents);
      expect(d.trace).toMatchObject({ pointerSize: exp.pointerSize, processId: exp.pid, numberOfProcessors: exp.numProcs, qpcFrequency: exp.qpcFreq });
      expect(d.trace!.syncTimeQpc).toBe(String(exp.syncTimeQPC));
      expect(d.dropped).toBe(0);
      // Time order is restored across threads.
      for (let i = 1; i < d.events.length; i++) expect(d.events[i]!.timestamp >= d.events[i - 1]!.timestamp || d.trace!.format === 'NetPerf').toBe(true);
    });
  }

  it('reads a zipped trace from disk transparently, in the same way as its unzipped bytes', async () => {
    let n = 0;
    const r = await readTraceFile(TRACES + 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip', { onEvent: () => n++ });
    expect(r.state).toBe('complete');
    expect(n).toBe(105540);
    expect(r.formatName).toBe('NetTrace V4');
  });

  it('names V5 when the metadata carries V5 tags', async () => {
    const r = await readTraceFile(TRACES + 'wait.nettrace', {});
    expect(r.formatName).toBe('NetTrace V5');
  });

  it('refuses the NetPerf V2 trace with the typed "unsupported version 2" error', async () => {
    const p = readTraceFile(TRACES + 'eventpipe-dotnetcore2.0-linux-objver2.netperf.zip', {});
    await expect(p).rejects.toBeInstanceOf(UnsupportedVersionError);
    await expect(p).rejects.toMatchObject({ code: 'unsupported-version', version: 2, minSupported: 3, maxSupported: 6 });
  });

  it('reports a missing file as a typed not-found error', async () => {
    await expect(readTraceFile(TRACES + 'nope.nettrace', {})).rejects.toMatchObject({ code: 'not-found' });
  });
});
