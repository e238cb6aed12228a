/**
 * The in-suite part of the CLI fuzzer (issue 19): mutated real traces and zips through the CLI's
 * main() in-process, each command, bounded in count and time. The long run is `npm run fuzz`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '../helpers/fuzz.js';
import { FIXTURES, traceBytes } from '../helpers/fixtures.js';
import { CLI_COMMANDS, fuzzCliOne, mutatedInput, runMainCaptured, contractProblem } from '../fuzz/cli-fuzz.js';

const TARGETS = [
  'eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.zip',
  'workload-server.nettrace.zip',
  'eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf.zip',
];
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gcscope-fuzz-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the CLI's main() on mutated traces", () => {
  it('the crafted overflow input that printed a TypeError stack now keeps the contract in-process', async () => {
    const file = join(FIXTURES, 'bad', 'uncompressed-event-size-overflow.nettrace');
    for (const cmd of ['events', 'report', 'log'] as const) {
      const r = await runMainCaptured([cmd, file]);
      expect(contractProblem(r.code, r.stderr, r.threw), r.stderr).toBeUndefined();
      expect(r.code).toBe(2);
    }
    expect(readFileSync(file).length).toBeGreaterThan(24);
  });

  it('regression from the 30-minute run: 180 bytes duplicated near the end of a .NET Core 3.0 trace (heaps with differing generation counts) is bad input, not a TypeError', async () => {
    // Mutation 'duplicate' at offset 4752266, 180 bytes (seed 1, input 5136 of `npm run fuzz`).
    const src = traceBytes('eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip');
    const p = 4752266;
    const n = 180;
    const bytes = new Uint8Array(src.length + n);
    bytes.set(src.subarray(0, p + n));
    bytes.set(src.subarray(p), p + n);
    for (const cmd of CLI_COMMANDS) {
      const r = await fuzzCliOne(bytes, cmd, join(dir, 'regression-5136.nettrace'), join(dir, 'regression.db'));
      expect(r.problem, `${cmd}: ${r.stderr}`).toBeUndefined();
    }
  });

  for (const [i, name] of TARGETS.entries()) {
    it(`${name}: every command exits 0 or 2 with at most one clean stderr line`, async () => {
      const rand = rng(0x19 + i);
      const problems: string[] = [];
      const deadline = Date.now() + 4000;
      let runs = 0;
      while (runs < 200 && (runs < 12 || Date.now() < deadline)) {
        const cmd = CLI_COMMANDS[runs % CLI_COMMANDS.length]!;
        const input = mutatedInput(name, rand, dir);
        const r = await fuzzCliOne(input.bytes, cmd, input.file, join(dir, 'fuzz.db'));
        if (r.problem !== undefined) problems.push(`${cmd} ${input.kind}: ${r.problem}: ${r.stderr.slice(0, 300)}`);
        runs++;
      }
      expect(runs).toBeGreaterThanOrEqual(12);
      expect(problems).toEqual([]);
    });
  }
});
