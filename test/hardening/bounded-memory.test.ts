/**
 * Memory stays bounded by the working set, not the input (issue 19 defect 4): the built CLI runs
 * in a child process on inputs made here (never committed) and its peak RSS is read from
 * process.resourceUsage().maxRSS at exit through a preloaded module. Before the fix a 2 MB zip
 * of zeros reached ~600 MB, an 8 MB zip bomb 6.4 GB (80 s), and report on a raw trace without
 * sequence points grew with the file (647 MB for 433 MB).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { TRACES } from '../helpers/fixtures.js';
import { writeLargeTrace, writeTraceBomb, writeZerosBomb } from './big-inputs.js';

/** Node plus sqlite is ~110 MB on its own; the design budget for any trace is 300 MB. */
const RSS_CAP_MB = 300;

let dir: string;
let preload: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gcscope-memory-'));
  preload = join(dir, 'max-rss.mjs');
  writeFileSync(
    preload,
    "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.GCSCOPE_RSS_OUT, String(process.resourceUsage().maxRSS)));\n",
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stderr: string;
  peakMB: number;
}

function runMeasured(args: string[]): Promise<Run> {
  const out = join(dir, `rss-${Math.random().toString(36).slice(2)}.txt`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', preload, BIN, ...args], {
      env: { ...process.env, GCSCOPE_RSS_OUT: out },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, peakMB: Number(readFileSync(out, 'utf8')) / 1024 });
    });
  });
}

const commands = (file: string, db: string): string[][] => [
  ['events', file],
  ['report', file],
  ['import', file, '--db', db],
];

describe('bounded memory on hostile and large inputs', () => {
  it(`a 2 MB zip of 2 GiB of zeros stops at once, under ${RSS_CAP_MB} MB`, async () => {
    const file = join(dir, 'zeros.zip');
    writeZerosBomb(file);
    for (const args of commands(file, join(dir, 'zeros.db'))) {
      const r = await runMeasured(args);
      expect(r.code, r.stderr).toBe(2);
      // Either check may come first: the reader refusing the zeros, or the ratio cap.
      expect(r.stderr).toMatch(/not a trace GCScope can read|decompression bomb/);
      expect(r.peakMB, args[0]).toBeLessThan(RSS_CAP_MB);
    }
  });

  it(`a zip bomb holding a valid trace (8 MB expanding to 3.5 GiB) is refused as a decompression bomb, under ${RSS_CAP_MB} MB`, async () => {
    const file = join(dir, 'bomb.zip');
    const { unzippedBytes } = writeTraceBomb(file);
    expect(unzippedBytes).toBeGreaterThan(3e9);
    for (const args of commands(file, join(dir, 'bomb.db'))) {
      const r = await runMeasured(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/expands more than 200 times .* decompression bomb/);
      expect(r.peakMB, args[0]).toBeLessThan(RSS_CAP_MB);
    }
  });

  it(`a 512 MB raw trace without sequence points is read whole, under ${RSS_CAP_MB} MB`, async () => {
    const file = join(dir, 'large.nettrace');
    writeLargeTrace(file, 512 << 20, { sequencePoints: false });
    try {
      for (const args of commands(file, join(dir, 'large.db'))) {
        const r = await runMeasured(args);
        expect(r.code, r.stderr).toBe(0);
        expect(r.peakMB, args[0]).toBeLessThan(RSS_CAP_MB);
      }
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe('zip limits (unit)', () => {
  it('a zip whose trace unzips past the output cap is refused with a clear error', async () => {
    const { readTraceFile } = await import('../../src-main/recording/trace-file.js');
    const file = join(dir, 'workload.zip');
    writeFileSync(file, readFileSync(join(TRACES, 'workload-workstation.nettrace.zip')));
    await expect(readTraceFile(file, {}, { maxUnzippedBytes: 1 << 20 })).rejects.toThrow(/unzips to more than 1 MiB/);
    const ok = await readTraceFile(file, {});
    expect(ok.state).toBe('complete');
  });
});
