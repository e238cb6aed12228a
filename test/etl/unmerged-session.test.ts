/**
 * PerfView's unmerged session: `X.etl` (the CLR's events) beside `X.clrRundown.etl` (the rundown
 * at the end: method names) and `X.kernel.etl` (process names). gcevents.etl.zip and
 * gcrundownevents.etl.zip hold one such session's PerfViewData.etl and PerfViewData.clrRundown.etl
 * (PROVENANCE.md); unzipped side by side, opening X.etl reads both, merged by time on their one
 * clock. What is missing is said in one line; a part opened alone says to open X.etl.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDisplayName } from '../../src-main/clr/event-names.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { readTraceFile } from '../../src-main/recording/trace-file.js';
import { EtlReader } from '../../src-main/etl/reader.js';
import { runCliInProcess as gcscope } from '../helpers/cli-in-process.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { readBaseline } from './helpers.js';

const DIR = mkdtempSync(join(tmpdir(), 'gcscope-etl-session-'));
const SESSION = join(DIR, 'session');
const ALONE = join(DIR, 'alone');
const CLOCK = join(DIR, 'clock');

function unzipEtl(zip: string): Uint8Array {
  const entries = Object.entries(unzipSync(new Uint8Array(readFileSync(`${FIXTURES}etl/${zip}`)))).filter(([n]) => n.endsWith('.etl'));
  expect(entries).toHaveLength(1);
  return entries[0]![1];
}

beforeAll(() => {
  for (const d of [SESSION, ALONE, CLOCK]) mkdirSync(d);
  const user = unzipEtl('gcevents.etl.zip');
  const rundown = unzipEtl('gcrundownevents.etl.zip');
  writeFileSync(join(SESSION, 'PerfViewData.etl'), user);
  writeFileSync(join(SESSION, 'PerfViewData.clrRundown.etl'), rundown);
  writeFileSync(join(ALONE, 'PerfViewData.etl'), user);
  // The rundown file with another QPC frequency (TRACE_LOGFILE_HEADER.PerfFreq, 64-bit layout:
  // buffer header 0x48 + SYSTEM header 0x20 + 0x100): not from the same recording.
  const other = rundown.slice();
  const at = 0x48 + 0x20 + 0x100;
  new DataView(other.buffer, other.byteOffset).setBigInt64(at, 3_000_000n, true);
  copyFileSync(join(SESSION, 'PerfViewData.etl'), join(CLOCK, 'PerfViewData.etl'));
  writeFileSync(
    join(DIR, 'session.zip'),
    zipSync({ 'PerfViewData.etl': user, 'PerfViewData.clrRundown.etl': rundown, 'LogFile.txt': new TextEncoder().encode('log') }),
  );
  writeFileSync(join(DIR, 'two.zip'), zipSync({ 'a.etl': user, 'b.etl': rundown }));
  writeFileSync(join(CLOCK, 'PerfViewData.clrRundown.etl'), other);
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('an unmerged PerfView session opened by its X.etl', () => {
  it('reads X.clrRundown.etl with it: every rundown event of that file, in time order, after X.etl’s own', async () => {
    const names: string[] = [];
    const times: number[] = [];
    const reader = await readTraceFile(join(SESSION, 'PerfViewData.etl'), {
      onEvent: (e) => {
        names.push(eventDisplayName(e.metadata));
        times.push(e.timestamp);
      },
    });
    expect(reader.state).toBe('complete');
    // Every rundown event TraceEvent counts in the rundown file (it does not count DCStopVerbose,
    // which TraceLog consumes: 80 here), added to what X.etl holds of that name.
    const rundown = readBaseline('gcrundownevents').counts;
    const user = readBaseline('gcevents').counts;
    const ours = new Map<string, number>();
    for (const n of names) ours.set(n, (ours.get(n) ?? 0) + 1);
    const rundownNames = [...rundown.keys()].filter((n) => n.startsWith('Microsoft-Windows-DotNETRuntimeRundown/'));
    expect(rundownNames.length).toBeGreaterThan(5);
    for (const n of rundownNames) expect(ours.get(n) ?? 0, n).toBe(rundown.get(n)! + (user.get(n) ?? 0));
    expect(ours.get('Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopVerbose')).toBe(80);
    for (let i = 1; i < times.length; i++) expect(times[i]!, `event ${i}`).toBeGreaterThanOrEqual(times[i - 1]!);
    const firstRundown = names.indexOf('Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopVerbose');
    expect(names.slice(0, firstRundown).some((n) => n.startsWith('Microsoft-Windows-DotNETRuntime/'))).toBe(true);
  });

  it('the rundown names the methods: 80 known from it, none when X.etl is opened alone', async () => {
    const both = await analyzeTraceFile(join(SESSION, 'PerfViewData.etl'), { stacks: true, processId: 179596 });
    const alone = await analyzeTraceFile(join(ALONE, 'PerfViewData.etl'), { stacks: true, processId: 179596 });
    expect(both.stackEvents!.methodCounts.rundown).toBe(80);
    expect(alone.stackEvents!.methodCounts.rundown).toBe(0);
    // Same GCs either way.
    expect(both.analyzer.gcs.filter((g) => g !== undefined).map((g) => g.number)).toEqual(
      alone.analyzer.gcs.filter((g) => g !== undefined).map((g) => g.number),
    );
  });

  it('says in one line what is missing: the kernel file (process names), and the rundown when it is not there either', async () => {
    const both = await gcscope(['report', join(SESSION, 'PerfViewData.etl')]);
    expect(both.code).toBe(0);
    expect(both.stderr.trim().split('\n')).toHaveLength(1);
    expect(both.stderr).toMatch(/; process names unknown: PerfViewData\.kernel\.etl \(PerfView's kernel session\) is not beside PerfViewData\.etl\n$/);
    const alone = await gcscope(['report', join(ALONE, 'PerfViewData.etl')]);
    expect(alone.stderr).toMatch(/is not beside PerfViewData\.etl, nor PerfViewData\.clrRundown\.etl \(method names\)\n$/);
    const events = await gcscope(['events', join(ALONE, 'PerfViewData.etl')]);
    expect(events.stdout).toMatch(/^Note: process names unknown: PerfViewData\.kernel\.etl/m);
  });

  it('the rundown part opened alone is refused in one line saying to open X.etl', async () => {
    const r = await gcscope(['report', join(SESSION, 'PerfViewData.clrRundown.etl')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/PerfViewData\.clrRundown\.etl is the CLR rundown part of an unmerged PerfView session: open PerfViewData\.etl beside it instead/);
  });

  it('a sibling on another clock is not merged: one line naming the file and its clock', async () => {
    const r = await gcscope(['report', join(CLOCK, 'PerfViewData.etl')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /PerfViewData\.clrRundown\.etl: beside PerfViewData\.etl but on another clock \(3000000 ticks\/s, clock type 1; PerfViewData\.etl: 10000000, 1\)/,
    );
  });
});

describe('a zip of one unmerged session', () => {
  it('opens as that session (no --entry asked): the rundown part read with X.etl', async () => {
    const a = await analyzeTraceFile(join(DIR, 'session.zip'), { stacks: true, processId: 179596 });
    expect(a.reader.state).toBe('complete');
    expect(a.stackEvents!.methodCounts.rundown).toBe(80);
    expect(a.analyzer.gcs.filter((g) => g !== undefined)).toHaveLength(2);
    const r = await gcscope(['report', join(DIR, 'session.zip')]);
    expect(r.code).toBe(0);
  });

  it('a zip of two unrelated .etl files still asks which, listing them', async () => {
    const r = await gcscope(['report', join(DIR, 'two.zip')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds 2 traces \("a\.etl", "b\.etl"\); choose one with --entry NAME/);
  });
});

describe('EtlReader.nextFile (the merge itself)', () => {
  const user = (): Uint8Array => new Uint8Array(readFileSync(join(SESSION, 'PerfViewData.etl')));
  const rundownFile = (dir: string): Uint8Array => new Uint8Array(readFileSync(join(dir, 'PerfViewData.clrRundown.etl')));

  it('refuses a next file on another clock, and a file that stopped inside a buffer', () => {
    const a = new EtlReader({});
    a.push(user());
    a.nextFile();
    expect(() => a.push(rundownFile(CLOCK))).toThrow(/another clock \(3000000 ticks\/s/);
    expect(a.state).toBe('failed');
    const b = new EtlReader({});
    b.push(user().subarray(0, 100_000));
    expect(() => b.nextFile()).toThrow(/stops inside a buffer/);
  });

  it('merges in bounded memory too: held past the hold size, events still come in time order with none late', () => {
    const times: number[] = [];
    const r = new EtlReader({ onEvent: (e) => times.push(e.timestamp) }, {}, 64 * 1024);
    r.push(user());
    r.nextFile();
    r.push(rundownFile(SESSION));
    r.end();
    expect(r.state).toBe('complete');
    expect(r.lateEvents).toBe(0);
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!);
  });
});
