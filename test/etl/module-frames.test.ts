/**
 * Who allocates, with stacks, on a .NET Framework ETL (net.4.5.2.x64: Test.x64.exe, 263 GCs,
 * 10,371 AllocationTicks with ClrStack/Walk stacks): jitted frames are named from the CLR's method
 * load events; the frames no method covers — clr.dll itself, for this program — are named
 * `module!0xRVA` from the kernel's Image events, as PerfView shows a frame it has no symbols for.
 * The images are TraceEvent's: each Image/Load line of the baseline for the process is one the
 * reader places, at the same base and size.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callerOf } from '../../src-main/shared/allocations.js';
import { ModuleMap, moduleName } from '../../src-main/symbols/module-map.js';
import { runCliInProcess as gcscope } from '../helpers/cli-in-process.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { etlBytes, readEtl } from './helpers.js';

const FILE = `${FIXTURES}etl/net.4.5.2.x64.etl.zip`;
const TEST_X64 = 3676;
const DIR = mkdtempSync(join(tmpdir(), 'gcscope-etl-modules-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('native images of a process (kernel Image events)', () => {
  it('places every image TraceEvent lists as loaded in Test.x64, at its base and size, even when only that process is read', () => {
    const { reader } = readEtl(etlBytes('net.4.5.2.x64.etl.zip'), { processId: TEST_X64 });
    const images = reader.imagesOf(TEST_X64);
    // The baseline's lines `EVENT <ms>: Windows Kernel/Image/Load PID=3676; …; ImageBase=0x…; ImageSize=1,826,816; …`
    // (readBaseline's names have no space, so these are read here).
    const text = readFileSync(`${FIXTURES}baselines/net.4.5.2.x64.baseline.txt`, 'utf8');
    const loads = [...text.matchAll(/^EVENT [\d,.]+: Windows Kernel\/Image\/Load PID=3676;.*? ImageBase=(0x[0-9a-f]+); ImageSize=([\d,]+);/gm)];
    expect(loads.length).toBeGreaterThan(0);
    for (const l of loads) {
      const base = Number.parseInt(l[1]!, 16);
      const img = images.find((i) => i.imageBase === base);
      expect(img, `image at ${l[1]}`).toBeDefined();
      expect(img!.imageSize).toBe(Number(l[2]!.replace(/,/g, '')));
    }
    const clr = images.find((i) => moduleName(i.fileName) === 'clr.dll');
    expect(clr).toMatchObject({ processId: TEST_X64, imageBase: 0x7f9be0a0000, imageSize: 0x9a0000 });
    expect(clr!.fileName).toMatch(/\\Framework64\\v4\.0\.30319\\clr\.dll$/);
  });

  it('names an address by module and offset, its end exclusive, and nothing outside every image', () => {
    const m = new ModuleMap();
    m.add({ imageBase: 0x1000, imageSize: 0x100, fileName: '\\Device\\HarddiskVolume2\\Windows\\System32\\ntdll.dll' });
    m.add({ imageBase: 0x5000, imageSize: 0x10, fileName: 'C:\\x\\clr.dll' });
    expect(m.frameName(0x1000)).toBe('ntdll.dll!0x0');
    expect(m.frameName(0x10ff)).toBe('ntdll.dll!0xff');
    expect(m.frameName(0x1100)).toBeUndefined();
    expect(m.frameName(0xfff)).toBeUndefined();
    expect(m.frameName(0x500a)).toBe('clr.dll!0xa');
  });
});

describe('gcscope allocs on a .NET Framework ETL', () => {
  it('shows the allocating stacks: jitted methods by name, the runtime’s frames as clr.dll!0xRVA, no bare addresses', async () => {
    const r = await gcscope(['allocs', '--by', 'stack', '--depth', '8', FILE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Stacks {6}24 distinct frames, 19 only by module \(shown as module!0xRVA\); methods known: 288 from load events, 0 from the rundown$/m,
    );
    expect(r.stdout).not.toMatch(/\? 0x/);
    const tree = r.stdout.slice(r.stdout.indexOf('Call tree (bottom-up)'));
    const frames = tree
      .split('\n')
      .slice(1, 9)
      .map((l) => l.replace(/^\s*[\d.]+ [KMG]?B\s+[\d.]+ %\s+/, ''));
    // Innermost first: the runtime's allocation helper, up to the program's Main.
    expect(frames[0]).toBe('clr.dll!0x48041d');
    expect(frames).toContain('Test.Program.Main(class System.String[])');
  });

  it('an imported session keeps those names (the app’s “who allocates” reads them)', async () => {
    const db = join(DIR, 'a.db');
    const imp = await gcscope(['import', '--db', db, '--pid', String(TEST_X64), FILE]);
    expect(imp.code).toBe(0);
    const r = await gcscope(['allocs', '--db', db, '--session', '1', '--by', 'stack', '--depth', '8']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/clr\.dll!0x48041d/);
    expect(r.stdout).toMatch(/Test\.Program\.Main\(class System\.String\[\]\)/);
    expect(r.stdout).not.toMatch(/\? 0x/);
  });
});

describe('who triggered each GC, on a .NET Framework ETL', () => {
  it('the caller is the first managed frame, past the runtime’s native allocation helpers (clr.dll!0x…)', async () => {
    const r = await gcscope(['report', '--format', 'json', FILE]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { triggers: { gcNumber: number; frames: string[]; caller: string | null }[] };
    expect(j.triggers.length).toBeGreaterThan(200);
    const last = j.triggers.find((t) => t.gcNumber === 263)!;
    expect(last.frames[0]).toMatch(/^clr\.dll!0x[0-9a-f]+$/);
    expect(last.caller).toBe(
      'System.TimeZoneInfo.GetIsDaylightSavingsFromUtc(value class System.DateTime,int32,value class System.TimeSpan,class AdjustmentRule,bool&)',
    );
    expect(j.triggers.filter((t) => t.caller !== null && /!0x|^\? 0x/.test(t.caller))).toEqual([]);
  });

  it('callerOf passes over GC entry points and native frames, and falls back to the first native frame when no managed one is there', () => {
    expect(callerOf(['System.GC.Collect()', 'clr.dll!0x10', '? 0x7ff0', 'App.Main()'])).toBe('App.Main()');
    expect(callerOf(['System.GC.Collect()', 'clr.dll!0x10', '? 0x7ff0'])).toBe('clr.dll!0x10');
    expect(callerOf(['System.GC.Collect()'])).toBeNull();
  });
});
