/**
 * Every input `npm run fuzz` saved (test/fixtures/fuzz-regressions/<reader>/: the input and a JSON
 * sidecar naming the command, the seed trace, the mutation and what failed) is replayed through
 * the same worker pool the fuzzer uses — a separate process, so a hang is killed at the issue-40
 * limit and peak RSS is measured — and must now keep the CLI's contract (test/fuzz/contract.ts).
 * A finding fixed in src-main stays fixed; a finding not fixed yet fails here until it is.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { ISSUE_40_LIMITS, verdict } from '../fuzz/contract.js';
import { MUTATORS } from '../fuzz/mutators/index.js';
import { Pool } from '../fuzz/pool.js';

interface Sidecar {
  reader: string;
  input: string;
  ext: string;
  argv: string[];
  extraExits: number[];
  seedTrace: string;
  mutation: string;
  failure: { kind: string; detail: string };
}

const ROOT = join(FIXTURES, 'fuzz-regressions');
/** One folder per reader (the README beside them is not one). */
const readerDirs = (): string[] =>
  existsSync(ROOT)
    ? readdirSync(ROOT, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
const cases: { file: string; s: Sidecar }[] = readerDirs().flatMap((reader) =>
  readdirSync(join(ROOT, reader))
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ file: join(reader, f), s: JSON.parse(readFileSync(join(ROOT, reader, f), 'utf8')) as Sidecar })),
);

let pool: Pool;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gcscope-fuzz-regressions-'));
  pool = new Pool({ jobs: 1, hangMs: ISSUE_40_LIMITS.hangMs, killRssBytes: 1.5 * 1024 ** 3, recycleEvery: 50 });
});
afterAll(() => {
  pool?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('inputs the fuzzer found keep the CLI contract now', () => {
  it('every saved input has its sidecar, and every sidecar its input and a known reader', () => {
    for (const reader of readerDirs()) {
      const files = readdirSync(join(ROOT, reader));
      for (const f of files.filter((x) => !x.endsWith('.json') && !x.endsWith('.md'))) {
        const stem = f.replace(/\.(nettrace|netperf|etl|gcdump)(\.zip)?(\.gz)?$/, '');
        expect(files, `${reader}/${f} has no sidecar`).toContain(`${stem}.json`);
      }
    }
    for (const c of cases) {
      expect(existsSync(join(ROOT, c.s.reader, c.s.input)), `${c.file}: input ${c.s.input}`).toBe(true);
      expect(MUTATORS[c.s.reader], c.file).toBeDefined();
    }
  });

  for (const c of cases) {
    it(`${c.file}: ${c.s.argv[0]} on "${c.s.mutation.slice(0, 100)}" (was: ${c.s.failure.kind})`, { timeout: 120_000 }, async () => {
      const raw = new Uint8Array(readFileSync(join(ROOT, c.s.reader, c.s.input)));
      const bytes = c.s.input.endsWith('.gz') ? gunzipSync(raw) : raw;
      const file = join(dir, `input${c.s.ext}`);
      writeFileSync(file, bytes);
      let base = '';
      if (c.s.argv.includes('BASE')) {
        const seed = MUTATORS[c.s.reader]!.seeds().find((x) => x.name === c.s.seedTrace)!;
        base = join(dir, `base${seed.ext}`);
        writeFileSync(base, seed.bytes);
      }
      const db = join(dir, 'replay.db');
      for (const x of ['', '-wal', '-shm']) rmSync(db + x, { force: true });
      const argv = c.s.argv.map((a) => (a === 'FILE' ? file : a === 'BASE' ? base : a === 'DB' ? db : a));
      const r = await pool.run(argv);
      expect(verdict(r, c.s.extraExits, ISSUE_40_LIMITS), `was: ${c.s.failure.detail}`).toBeUndefined();
    });
  }
});

describe('the contract the fuzzer holds runs to', () => {
  const ok = { code: 0, stderr: '', ms: 10, peakRss: 100 * 1048576 };
  it('a clean exit 0, a one-line exit 2, and a documented exit (diagnose 3) pass', () => {
    expect(verdict(ok, [], ISSUE_40_LIMITS)).toBeUndefined();
    expect(verdict({ ...ok, code: 2, stderr: 'gcscope: truncated: trace is truncated at byte 12\n' }, [], ISSUE_40_LIMITS)).toBeUndefined();
    expect(verdict({ ...ok, code: 3 }, [3], ISSUE_40_LIMITS)).toBeUndefined();
  });
  it('a hang, a peak RSS over 400 MB, exit 1, two stderr lines and a stack trace each fail, with what went wrong', () => {
    expect(verdict({ ...ok, ms: 30_000, killed: 'hang' }, [], ISSUE_40_LIMITS)?.kind).toBe('hang');
    expect(verdict({ ...ok, peakRss: 401 * 1048576 }, [], ISSUE_40_LIMITS)?.kind).toBe('rss');
    expect(verdict({ ...ok, code: 1, stderr: 'gcscope: internal error: x\n' }, [], ISSUE_40_LIMITS)?.kind).toBe('exit');
    expect(verdict({ ...ok, code: 3 }, [], ISSUE_40_LIMITS)?.kind).toBe('exit');
    expect(verdict({ ...ok, code: 2, stderr: 'gcscope: a\ngcscope: b\n' }, [], ISSUE_40_LIMITS)?.kind).toBe('stderr');
    expect(verdict({ ...ok, code: 0, stderr: 'warning a\nwarning b\n' }, [], ISSUE_40_LIMITS)?.kind).toBe('stderr');
    expect(verdict({ ...ok, code: 2, stderr: 'TypeError: x\n    at f (a.js:1:1)\n' }, [], ISSUE_40_LIMITS)?.kind).toBe('stderr');
  });
  it('the pool measures a real CLI run in a worker: exit code, one stderr line, time and peak RSS', { timeout: 60_000 }, async () => {
    const r = await pool.run(['events', join(FIXTURES, 'bad', 'uncompressed-event-size-overflow.nettrace')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gcscope: .*\n$/);
    expect(r.peakRss).toBeGreaterThan(10 * 1048576);
    expect(verdict(r, [], ISSUE_40_LIMITS)).toBeUndefined();
  });
});
