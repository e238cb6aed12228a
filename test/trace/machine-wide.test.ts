/**
 * Machine-wide traces (ETW's .etl holds every process), format-neutral: a made-up machine-wide
 * format (test/helpers/machine-toy-format.ts) is surveyed for its .NET processes (name, runtime,
 * GCs), one process is analysed and reported alone, the default is the one with most GCs, a PID
 * the trace does not hold is refused in one line, and a zip of several traces lists them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessCensus } from '../../src-main/gc/process-census.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { reportInputFromFile } from '../../src-main/recording/report-source.js';
import { registerTraceFormat, unregisterTraceFormat } from '../../src-main/recording/trace-formats.js';
import { chooseTraceProcess, surveyTraceProcesses } from '../../src-main/recording/trace-processes.js';
import { readTraceFile } from '../../src-main/recording/trace-file.js';
import { eventRecord } from '../helpers/event-record.js';
import { TRACES } from '../helpers/fixtures.js';
import { MACHINE_TOY_FORMAT, machineTrace, THREE_DOTNET } from '../helpers/machine-toy-format.js';

const DIR = mkdtempSync(join(tmpdir(), 'gcscope-machine-'));
const FILE = join(DIR, 'machine.toymachine');
const ZIP = join(DIR, 'machine.toymachine.zip');
const TWO = join(DIR, 'two.zip');
const enc = new TextEncoder();

beforeAll(() => {
  registerTraceFormat(MACHINE_TOY_FORMAT);
  writeFileSync(FILE, machineTrace(THREE_DOTNET));
  // A PerfView-style zip: the trace beside symbol files, which are not traces.
  writeFileSync(ZIP, zipSync({ 'machine.toymachine': enc.encode(machineTrace(THREE_DOTNET)), 'symbols/Test.x64.pdb': enc.encode('not a trace') }));
  writeFileSync(
    TWO,
    zipSync({ 'a.toymachine': enc.encode(machineTrace(THREE_DOTNET)), 'b.toymachine': enc.encode(machineTrace([{ pid: 7, name: 'B.exe', sku: 2, gcs: 3 }])) }),
  );
});
afterAll(() => {
  unregisterTraceFormat(MACHINE_TOY_FORMAT);
  rmSync(DIR, { recursive: true, force: true });
});

describe('the .NET processes of a machine-wide trace', () => {
  it('lists each .NET process with its name, runtime and GC count, most GCs first; not the others', async () => {
    const s = await surveyTraceProcesses(FILE);
    expect(s.machineWide).toBe(true);
    expect(s.processes.map((p) => [p.processId, p.name, p.runtime, p.runtimeVersion, p.gcCount, p.pointerSize])).toEqual([
      [1234, 'Test.x64.exe', 'Desktop CLR', '4.0.30319.42000', 264, 8],
      [5678, 'Worker.exe', 'CoreCLR', '8.0.11', 40, 4],
      [9012, 'Idle.exe', 'CoreCLR', '6.0.36', 0, 8],
    ]);
    expect(s.processes[0]!.commandLine).toBe('"C:\\tests\\Test.x64.exe" /run');
  });

  it('counts a GC once when GCStart fires twice for it (.NET Framework writes two versions)', () => {
    const c = new ProcessCensus();
    const start = (n: number, version: number): Uint8Array => new Uint8Array([n, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0].slice(0, version === 0 ? 8 : 16));
    for (let n = 1; n <= 5; n++) for (const v of [0, 1]) c.onEvent({ ...eventRecord(1, start(n, v), { version: v }), processId: 42 });
    expect(c.processes(undefined).map((p) => [p.processId, p.gcCount, p.runtime])).toEqual([[42, 5, 'unknown']]);
  });

  it('a one-process trace (NetTrace) is not machine-wide: the survey stops at its first event', async () => {
    const s = await surveyTraceProcesses(TRACES + 'problem-healthy.nettrace.zip');
    expect(s.machineWide).toBe(false);
    expect(s.processes).toHaveLength(1);
    expect(s.processes[0]!.processId).toBe(s.trace!.processId);
    expect(s.processes[0]!.gcCount).toBe(-1);
  });
});

describe('one process of a machine-wide trace', () => {
  it('the default is the process with most GCs, said in one line', async () => {
    const c = await chooseTraceProcess(FILE, undefined);
    expect(c.processId).toBe(1234);
    expect(c.note).toBe(`${FILE} holds 3 .NET processes; showing PID 1234 Test.x64.exe (264 GCs); choose another with --pid`);
  });

  it('--pid chooses another; a PID the trace does not hold is refused listing those with GCs', async () => {
    expect((await chooseTraceProcess(FILE, 5678)).processId).toBe(5678);
    await expect(chooseTraceProcess(FILE, 99)).rejects.toMatchObject({
      code: 'no-such-process',
      message: `${FILE}: no PID 99 in this trace; processes with GCs: 1234 Test.x64.exe (264 GCs), 5678 Worker.exe (40 GCs)`,
    });
  });

  it('on a one-process trace, its own PID is fine and another is refused with the PID it holds', async () => {
    const f = TRACES + 'wait.nettrace';
    expect((await chooseTraceProcess(f, 72192)).processId).toBeUndefined();
    await expect(chooseTraceProcess(f, 5)).rejects.toMatchObject({
      code: 'no-such-process',
      message: `${f}: no PID 5 in this trace; processes with GCs: 72192 (6 GCs)`,
    });
  });

  it('the analysis of one process sees only its GCs, with its name, PID and pointer size', async () => {
    const a = await analyzeTraceFile(FILE, { processId: 5678 });
    expect(a.trace?.processId).toBe(5678);
    expect(a.trace?.pointerSize).toBe(4);
    expect(a.processName).toBe('Worker.exe');
    expect(a.analyzer.gcs.filter((g) => g?.isComplete).length).toBe(40);
    const r = await reportInputFromFile(FILE, undefined, { processId: 1234 });
    expect(r.gcs).toHaveLength(264);
    expect(r.src.process.name).toBe('Test.x64.exe');
    expect(r.src.process.pid).toBe(1234);
    expect(r.src.process.commandLine).toBe('"C:\\tests\\Test.x64.exe" /run');
    expect(r.src.process.runtimeVersion).toBe('Framework 4.0.30319.42000');
  });
});

describe('a zip of several traces', () => {
  it('opens the one trace beside symbol files', async () => {
    expect((await surveyTraceProcesses(ZIP)).processes[0]!.gcCount).toBe(264);
  });

  it('is refused listing its traces, and --entry chooses one', async () => {
    await expect(readTraceFile(TWO, {})).rejects.toMatchObject({
      code: 'zip-multiple',
      message: `${TWO}: the zip holds 2 traces ("a.toymachine", "b.toymachine"); choose one with --entry NAME (or unzip it and open that one)`,
    });
    const s = await surveyTraceProcesses(TWO, { entry: 'b.toymachine' });
    expect(s.processes.map((p) => [p.name, p.gcCount])).toEqual([['B.exe', 3]]);
    await expect(readTraceFile(TWO, {}, { entry: 'c.toymachine' })).rejects.toMatchObject({
      code: 'zip-no-entry',
      message: `${TWO}: the zip holds no entry named "c.toymachine"; it holds "a.toymachine", "b.toymachine"`,
    });
  });
});
