/**
 * The commands on a machine-wide trace (ETW's .etl holds every process; here a made-up
 * machine-wide format, test/helpers/machine-toy-format.ts, registered in this process and run
 * through the command's own main()): `events` lists the .NET processes, the file commands take
 * `--pid` (default: most GCs, said on stderr in one line), a PID the trace does not hold is
 * refused with exit 2 in one line, `import` stores one session per .NET process with GCs, and
 * `--entry` chooses a trace of a zip holding several.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerTraceFormat, unregisterTraceFormat } from '../../src-main/recording/trace-formats.js';
import { Database } from '../../src-main/store/db.js';
import { listSessions } from '../../src-main/store/sessions.js';
import { runCliInProcess as gcscope } from '../helpers/cli-in-process.js';
import { TRACES } from '../helpers/fixtures.js';
import { MACHINE_TOY_FORMAT, machineTrace, THREE_DOTNET } from '../helpers/machine-toy-format.js';

const DIR = mkdtempSync(join(tmpdir(), 'gcscope-cli-machine-'));
const FILE = join(DIR, 'machine.toymachine');
const TWO = join(DIR, 'two.zip');
const enc = new TextEncoder();
const DEFAULT_LINE = `gcscope: note: ${FILE} holds 3 .NET processes; showing PID 1234 Test.x64.exe (264 GCs); choose another with --pid\n`;
const REFUSAL = `gcscope: ${FILE}: no PID 99 in this trace; processes with GCs: 1234 Test.x64.exe (264 GCs), 5678 Worker.exe (40 GCs)\n`;

beforeAll(() => {
  registerTraceFormat(MACHINE_TOY_FORMAT);
  writeFileSync(FILE, machineTrace(THREE_DOTNET));
  writeFileSync(
    TWO,
    zipSync({ 'a.toymachine': enc.encode(machineTrace(THREE_DOTNET)), 'b.toymachine': enc.encode(machineTrace([{ pid: 7, name: 'B.exe', sku: 2, gcs: 3 }])) }),
  );
});
afterAll(() => {
  unregisterTraceFormat(MACHINE_TOY_FORMAT);
  rmSync(DIR, { recursive: true, force: true });
});

describe('gcscope events on a machine-wide trace', () => {
  it('lists the .NET processes: PID, name, runtime, GC count, command line', async () => {
    const r = await gcscope(['events', FILE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\.NET processes: 3 /m);
    expect(r.stdout).toMatch(/^ PID\s+Name\s+Runtime\s+GCs\s+Command line$/m);
    expect(r.stdout).toMatch(/^1234\s+Test\.x64\.exe\s+Desktop CLR 4\.0\.30319\.42000\s+264\s+"C:\\tests\\Test\.x64\.exe" \/run$/m);
    expect(r.stdout).toMatch(/^5678\s+Worker\.exe\s+CoreCLR 8\.0\.11\s+40\s+Worker\.exe$/m);
    expect(r.stdout).toMatch(/^9012\s+Idle\.exe\s+CoreCLR 6\.0\.36\s+0\s+Idle\.exe$/m);
    expect(r.stdout).not.toMatch(/explorer\.exe/);
  });

  it('--format json carries the same list', async () => {
    const r = await gcscope(['events', '--format', 'json', FILE]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { processes: { processId: number; name: string; runtime: string; runtimeVersion: string; gcCount: number }[] };
    expect(j.processes.map((p) => [p.processId, p.name, p.runtime, p.runtimeVersion, p.gcCount])).toEqual([
      [1234, 'Test.x64.exe', 'Desktop CLR', '4.0.30319.42000', 264],
      [5678, 'Worker.exe', 'CoreCLR', '8.0.11', 40],
      [9012, 'Idle.exe', 'CoreCLR', '6.0.36', 0],
    ]);
  });

  it('a one-process trace has no process list (processes: null)', async () => {
    const r = await gcscope(['events', '--json', TRACES + 'wait.nettrace']);
    expect((JSON.parse(r.stdout) as { processes: unknown }).processes).toBeNull();
  });
});

describe('--pid on the file commands', () => {
  it('report shows the process with most GCs by default and says so on stderr in one line', async () => {
    const r = await gcscope(['report', '--json', FILE]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(DEFAULT_LINE);
    const j = JSON.parse(r.stdout) as { process: { pid: number; name: string }; gcs: unknown[] };
    expect(j.process).toMatchObject({ pid: 1234, name: 'Test.x64.exe' });
    expect(j.gcs).toHaveLength(264);
  });

  it.each([['report --format html'], ['diagnose --format json'], ['log']])(
    '%s --out FILE: "wrote FILE" and the process note in one stderr line',
    async (command) => {
      const args = command.split(' ');
      const out = join(DIR, `${args[0]}.out`);
      const r = await gcscope([...args, '--out', out, FILE]);
      // (diagnose exits 3 on a warning finding.)
      expect(args[0] === 'diagnose' ? [0, 3] : [0]).toContain(r.code);
      expect(r.stderr).toMatch(
        new RegExp(
          `^wrote ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.* \\(note: .* holds 3 \\.NET processes; showing PID 1234 Test\\.x64\\.exe \\(264 GCs\\); choose another with --pid\\)\\n$`,
        ),
      );
    },
  );

  it('report --pid shows that process, with nothing said', async () => {
    const r = await gcscope(['report', '--json', '--pid', '5678', FILE]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout) as { process: { pid: number; name: string }; gcs: unknown[] };
    expect(j.process).toMatchObject({ pid: 5678, name: 'Worker.exe' });
    expect(j.gcs).toHaveLength(40);
  });

  it.each([['report'], ['diagnose'], ['allocs'], ['log']])('%s --pid 99 (not in the trace): exit 2, one line listing the PIDs with GCs', async (cmd) => {
    const r = await gcscope([cmd, '--pid', '99', FILE]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(REFUSAL);
  });

  it('log and diagnose read the chosen process', async () => {
    const log = await gcscope(['log', '--json', '--pid', '5678', FILE]);
    expect(log.code).toBe(0);
    expect(log.stdout.trim().split('\n')).toHaveLength(40);
    const d = await gcscope(['diagnose', '--json', FILE]);
    expect(d.stderr).toBe(DEFAULT_LINE);
    expect((JSON.parse(d.stdout) as { range: { gcCount: number } }).range.gcCount).toBe(264);
  });

  it('allocs takes --pid and says the default', async () => {
    const r = await gcscope(['allocs', '--json', FILE]);
    expect(r.stderr).toBe(DEFAULT_LINE);
    expect(r.code).toBe(0);
  });

  it('compare takes one --pid per file: two processes of one trace', async () => {
    const r = await gcscope(['compare', '--json', '--pid', '1234', '--pid', '5678', FILE, FILE]);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout) as {
      a: { label: string; gcCount: number; processName: string };
      b: { label: string; gcCount: number; processName: string };
    };
    expect([j.a.label, j.a.processName, j.a.gcCount]).toEqual(['A: machine.toymachine PID 1234', 'Test.x64.exe', 264]);
    expect([j.b.label, j.b.processName, j.b.gcCount]).toEqual(['B: machine.toymachine PID 5678', 'Worker.exe', 40]);
    const refused = await gcscope(['compare', '--pid', '99', FILE, TRACES + 'wait.nettrace']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(REFUSAL);
  });

  it('compare of two machine-wide traces without --pid says both defaults in one stderr line', async () => {
    const copy = join(DIR, 'copy.toymachine');
    writeFileSync(copy, machineTrace(THREE_DOTNET));
    const r = await gcscope(['compare', '--json', FILE, copy]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `gcscope: note: ${FILE} holds 3 .NET processes; showing PID 1234 Test.x64.exe (264 GCs); choose another with --pid; ${copy} holds 3 .NET processes; showing PID 1234 Test.x64.exe (264 GCs); choose another with --pid\n`,
    );
  });

  it('on a one-process trace, its own PID is fine and another is refused in one line', async () => {
    const ok = await gcscope(['log', '--json', '--pid', '72192', TRACES + 'wait.nettrace']);
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim().split('\n')).toHaveLength(6);
    const no = await gcscope(['log', '--pid', '5', TRACES + 'wait.nettrace']);
    expect(no.code).toBe(2);
    expect(no.stderr).toBe(`gcscope: ${TRACES}wait.nettrace: no PID 5 in this trace; processes with GCs: 72192 (6 GCs)\n`);
  });

  it('--pid that is not a number is refused', async () => {
    const r = await gcscope(['report', '--pid', 'abc', FILE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('gcscope: --pid needs a process id (a positive number), not "abc"\n');
  });
});

describe('gcscope import of a machine-wide trace', () => {
  it('stores one session per .NET process with GCs, named after the process and its PID', async () => {
    const db = join(DIR, 'all.db');
    const r = await gcscope(['import', '--json', '--db', db, FILE]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { sessions: { processId: number; summary: { gcCount: number } }[] };
    expect(j.sessions.map((s) => [s.processId, s.summary.gcCount])).toEqual([
      [1234, 264],
      [5678, 40],
    ]);
    const d = await Database.open(db);
    try {
      const ss = (await listSessions(d)).sort((a, b) => a.id - b.id);
      expect(ss.map((s) => [s.name, s.processName, s.processId, s.pointerSize, s.gcCount])).toEqual([
        ['Test.x64.exe (PID 1234)', 'Test.x64.exe', 1234, 8, 264],
        ['Worker.exe (PID 5678)', 'Worker.exe', 5678, 4, 40],
      ]);
    } finally {
      await d.close();
    }
    // Imported again: refused as a duplicate (each process is its own import).
    const again = await gcscope(['import', '--db', db, FILE]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^gcscope: .*\(Test\.x64\.exe \(PID 1234\)\): this file was already imported as session 1/);
  });

  it('--pid stores only that process; a PID the trace does not hold stores nothing', async () => {
    const db = join(DIR, 'one.db');
    const r = await gcscope(['import', '--db', db, '--pid', '5678', FILE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Stored session 1 of Worker\.exe \(PID 5678\) \(complete\)/);
    const no = await gcscope(['import', '--db', join(DIR, 'none.db'), '--pid', '99', FILE]);
    expect(no.code).toBe(2);
    expect(no.stderr).toBe(REFUSAL);
  });
});

describe('--entry for a zip holding several traces', () => {
  it('without it, the zip is refused listing its traces in one line', async () => {
    const r = await gcscope(['events', TWO]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `gcscope: ${TWO}: the zip holds 2 traces ("a.toymachine", "b.toymachine"); choose one with --entry NAME (or unzip it and open that one)\n`,
    );
  });

  it('chooses one, on every command that takes a file', async () => {
    const ev = await gcscope(['events', '--json', '--entry', 'b.toymachine', TWO]);
    expect((JSON.parse(ev.stdout) as { processes: { name: string }[] }).processes.map((p) => p.name)).toEqual(['B.exe']);
    const rep = await gcscope(['log', '--json', '--entry', 'b.toymachine', TWO]);
    expect(rep.stdout.trim().split('\n')).toHaveLength(3);
    const imp = await gcscope(['import', '--db', join(DIR, 'entry.db'), '--entry', 'a.toymachine', '--pid', '5678', TWO]);
    expect(imp.code).toBe(0);
    expect(imp.stdout).toMatch(/Worker\.exe \(PID 5678\)/);
    const cmp = await gcscope(['compare', '--json', '--entry', 'a.toymachine', '--entry', 'b.toymachine', TWO, TWO]);
    expect(cmp.code).toBe(0);
  });
});
