/**
 * A trace format and an event consumer are each one module plus one registration line: a made-up
 * text format (toy-format.ts) is recognized by its first bytes, in a file and in a zip, and
 * gives GCs in the in-memory analysis, the report and an import; a made-up consumer
 * (event-count-consumer.ts) sees every event of every analysis, its header and its end.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { importTrace } from '../../src-main/recording/importer.js';
import { reportInputFromFile } from '../../src-main/recording/report-source.js';
import { registerTraceConsumer, unregisterTraceConsumer } from '../../src-main/recording/trace-consumers.js';
import { registerTraceFormat, unregisterTraceFormat } from '../../src-main/recording/trace-formats.js';
import { readTraceFile } from '../../src-main/recording/trace-file.js';
import { Database } from '../../src-main/store/db.js';
import { getSession } from '../../src-main/store/sessions.js';
import { TRACES } from '../helpers/fixtures.js';
import { countEvents, seen } from './event-count-consumer.js';
import { TOY_FORMAT, toyTrace } from './toy-format.js';

const DIR = mkdtempSync(join(tmpdir(), 'gcscope-toy-'));
const TOY = join(DIR, 'three.toy');
const TOY_ZIP = join(DIR, 'three.toy.zip');

beforeAll(() => {
  registerTraceFormat(TOY_FORMAT); // the format: one line
  registerTraceConsumer(countEvents); // the consumer: one line
  writeFileSync(TOY, toyTrace(3));
  writeFileSync(TOY_ZIP, zipSync({ 'three.toy': new TextEncoder().encode(toyTrace(3)) }));
});
afterAll(() => {
  unregisterTraceFormat(TOY_FORMAT);
  unregisterTraceConsumer(countEvents);
  rmSync(DIR, { recursive: true, force: true });
});
beforeEach(() => {
  seen.traces = [];
  seen.events = 0;
  seen.byName.clear();
  seen.flushes = 0;
  seen.finished = 0;
  seen.endState = '';
});

describe('a made-up trace format, registered', () => {
  it('is recognized by content and its GCs come out of the analysis', async () => {
    const a = await analyzeTraceFile(TOY);
    expect(a.reader.formatName).toBe('Toy V1');
    expect(a.reader.state).toBe('complete');
    expect(a.trace?.processId).toBe(4242);
    const gcs = a.analyzer.gcs.filter((g) => g !== undefined);
    expect(gcs.map((g) => [g.number, g.generation, g.isComplete])).toEqual([
      [1, 0, true],
      [2, 0, true],
      [3, 0, true],
    ]);
    expect(gcs[0]!.pauseDurationMSec).toBeCloseTo(2, 6);
  });

  it('inside a zip too, and in the report', async () => {
    const r = await reportInputFromFile(TOY_ZIP);
    expect(r.src.trace.format).toBe('Toy V1');
    expect(r.gcs.map((g) => g.number)).toEqual([1, 2, 3]);
    expect(r.gcs.every((g) => Math.abs(g.pauseDurationMSec - 2) < 1e-6)).toBe(true);
  });

  it('imports into a stored session with its GCs and format', async () => {
    const db = await Database.open(':memory:');
    try {
      const r = await importTrace(db, TOY);
      expect(r.status).toBe('complete');
      expect(r.gcCount).toBe(3);
      const s = await getSession(db, r.sessionId);
      expect(s.format).toBe('Toy V1');
      expect(s.processId).toBe(4242);
    } finally {
      await db.close();
    }
  });

  it('is named among what GCScope reads when a file is neither', async () => {
    const bad = join(DIR, 'notes.txt');
    writeFileSync(bad, 'just some notes, not a trace\n');
    await expect(readTraceFile(bad, {})).rejects.toMatchObject({
      code: 'bad-magic',
      offset: 0,
      message: expect.stringMatching(/looks like text; GCScope reads \.nettrace, \.netperf, \.etl, \.etl\.zip and \.toy/),
    });
  });

  it('leaves NetTrace files to the NetTrace reader', async () => {
    const a = await analyzeTraceFile(TRACES + 'problem-healthy.nettrace.zip');
    expect(a.reader.formatName).toMatch(/^NetTrace V/);
  });
});

describe('a made-up consumer, registered', () => {
  it('sees the header, every event and the end of a toy trace', async () => {
    const a = await analyzeTraceFile(TOY);
    expect(seen.traces).toEqual(['Toy V1']);
    expect(seen.events).toBe(a.reader.eventCount);
    expect(seen.events).toBe(3 * 7);
    expect(seen.byName.get('Microsoft-Windows-DotNETRuntime/1')).toBe(3);
    expect(seen.finished).toBe(1);
    expect(seen.endState).toBe('complete');
  });

  it('sees every event of a NetTrace import, with its flushes', async () => {
    const db = await Database.open(':memory:');
    try {
      const r = await importTrace(db, TRACES + 'problem-healthy.nettrace.zip');
      expect(seen.events).toBe(r.eventCount);
      expect(seen.events).toBeGreaterThan(1000);
      expect(seen.traces).toEqual(['NetTrace V4']);
      expect(seen.finished).toBe(1);
    } finally {
      await db.close();
    }
  });
});
