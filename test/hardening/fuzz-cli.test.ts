/**
 * The in-suite part of the CLI fuzzer (issue 19): mutated real traces and zips through the CLI's
 * main() in-process, each command, bounded in count and time. The long run is `npm run fuzz`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '../helpers/fuzz.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { CLI_COMMANDS, fuzzCliOne, mutatedInput, runMainCaptured, contractProblem } from '../fuzz/cli-fuzz.js';

const TARGETS = ['eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.zip', 'workload-server.nettrace.zip', 'eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf.zip'];
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
