/**
 * The CLI on hostile and unlucky inputs (issue 19 defects 5-8 and "errors go to stderr"): each
 * crafted file in test/fixtures/bad/ through the built `gcscope`, as a user would run it. Every
 * failure must be exit 2 with exactly one line on stderr naming the file and the problem (with a
 * byte offset for decode errors), no stack trace, no raw control characters, and nothing stored
 * for inputs that are not traces.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { runCli, type CliResult } from '../helpers/cli.js';

const BAD = join(FIXTURES, 'bad');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gcscope-bad-input-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Exit 2 and one clean line on stderr. */
function expectOneLineError(r: CliResult, pattern: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^gcscope: /);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at |TypeError|RangeError/);
  // eslint-disable-next-line no-control-regex
  expect(r.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
}

async function sessionCount(db: string): Promise<number> {
  const r = await runCli(['sessions', '--db', db, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { sessions: unknown[] }).sessions.length;
}

describe('an event size near 2^31 in an uncompressed event (defect 5)', () => {
  const file = join(BAD, 'uncompressed-event-size-overflow.nettrace');
  for (const cmd of ['events', 'report', 'log']) {
    it(`${cmd} exits 2 with a typed error and its byte offset, no TypeError stack`, async () => {
      expectOneLineError(await runCli([cmd, file]), /uncompressed-event-size-overflow\.nettrace: .*byte offset \d+/);
    });
  }
  it('import keeps the decoded part as an incomplete session and says why on stderr, not only on stdout', async () => {
    const db = join(dir, 'overflow.db');
    const r = await runCli(['import', file, '--db', db]);
    expectOneLineError(r, /stored as incomplete: .*byte offset \d+/);
  });
});

describe('files that are not regular files (defect 6)', () => {
  beforeAll(() => {
    mkdirSync(join(dir, 'x.nettrace'));
    execFileSync('mkfifo', [join(dir, 'fifo.nettrace')]);
  });
  for (const cmd of ['events', 'report', 'import']) {
    it(`${cmd} refuses a folder named x.nettrace with one line (no EISDIR stack)`, async () => {
      expectOneLineError(
        await runCli([cmd, join(dir, 'x.nettrace'), ...(cmd === 'import' ? ['--db', join(dir, 'd.db')] : [])]),
        /x\.nettrace: is a folder, not a trace file/,
      );
    });
    it(`${cmd} refuses a FIFO at once instead of waiting forever`, async () => {
      expectOneLineError(
        await runCli([cmd, join(dir, 'fifo.nettrace'), ...(cmd === 'import' ? ['--db', join(dir, 'd.db')] : [])], { timeoutMs: 20_000 }),
        /fifo\.nettrace: is a named pipe \(FIFO\), not a trace file/,
      );
    });
  }
});

describe('control characters from the file are escaped (defect 7)', () => {
  const file = join(BAD, 'escape-sequence-in-block-name.nettrace');
  for (const cmd of ['events', 'report', 'log']) {
    it(`${cmd}: an ESC[2J in a block name prints as \\x1b[2J on one line instead of clearing the screen`, async () => {
      const r = await runCli([cmd, file]);
      expectOneLineError(r, /unrecognized block type "\\x1b\[2J\\x1b\[31mEvil\\nBlock\\x07"/);
    });
  }
});

describe('control characters in names the trace defines are escaped in normal output too (defect 7)', () => {
  it('events prints a provider name holding ESC[2J and a newline as \\x1b[2J…\\n… on one line', async () => {
    const r = await runCli(['events', join(BAD, 'escape-sequence-in-provider-name.nettrace')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\\x1b[2JEvil\\nProvider/Boom');
    expect(r.stdout).not.toContain('\x1b');
  });
});

describe('inputs that are not traces store nothing (defect 8)', () => {
  for (const [name, why] of [
    ['empty.nettrace', /the file is empty/],
    // Too short for a trace header, but no trace starts like this: format detection says what it is.
    [
      'json.nettrace',
      /json\.nettrace: bad-magic: not a trace GCScope can read: it looks like JSON; GCScope reads \.nettrace, \.netperf, \.etl and \.etl\.zip \(at byte offset 0\)/,
    ],
    ['bare-magic.nettrace', /not a \.NET trace: it ends after 8 bytes/],
    ['empty.zip', /the zip holds no trace file/],
  ] as const) {
    it(`import of ${name} exits 2 and stores no session`, async () => {
      const db = join(dir, `${name}.db`);
      expectOneLineError(await runCli(['import', join(BAD, name), '--db', db]), why);
      expect(await sessionCount(db)).toBe(0);
    });
  }

  for (const [name, method] of [
    ['bzip2-entry.zip', 'bzip2'],
    ['lzma-entry.zip', 'LZMA'],
  ] as const) {
    it(`${name} says "unsupported compression" (${method}), not "ctr is not a constructor"`, async () => {
      expectOneLineError(await runCli(['events', join(BAD, name)]), new RegExp(`unsupported compression: .*${method}`));
      const db = join(dir, `${name}.db`);
      expectOneLineError(await runCli(['import', join(BAD, name), '--db', db]), /unsupported compression/);
      expect(await sessionCount(db)).toBe(0);
    });
  }

  for (const name of ['finder-zip-with-macosx.zip', 'zip-with-folder-entry.zip']) {
    it(`${name}: __MACOSX/ and folder entries are ignored and the one trace is read`, async () => {
      const r = await runCli(['events', join(BAD, name), '--json']);
      expect(r.code, r.stderr).toBe(0);
      const rep = JSON.parse(r.stdout) as { counts: Record<string, number>; state: string };
      expect(rep.state).toBe('complete');
      expect(rep.counts['Microsoft-Windows-DotNETRuntime/GC/Start']).toBe(1);
    });
  }
});
