/**
 * One field of one GC event (issue 40, "hangs and memory blow-ups from one field" and "impossible
 * values stored as fact"): a real fixture with a single u32 of a GCMarkWithType or GCStart payload
 * overwritten by what one flipped bit makes. GCMarkWithType's heap number and mark type indexed
 * arrays unchecked (an array of ~2^32 entries that `report`, `log`, `diagnose` and `compare` then
 * walked forever, and `import` wrote out as a 269 MB database); GCStart's depth became a GC of
 * generation 258 stored as fact, which `sessions --check` then failed. Each such event is now
 * refused at decode (clr/gc-events.ts bounds), counted as undecodable, and the session says so.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME, RuntimeEvent } from '../../src-main/clr/gc-events.js';
import { GCAnalyzer } from '../../src-main/gc/gc-analyzer.js';
import { StackEvents } from '../../src-main/symbols/stack-events.js';
import { runCli } from '../helpers/cli.js';
import { decode } from '../helpers/decode.js';
import { traceBytes } from '../helpers/fixtures.js';

/** A Server GC trace (two heaps) with GCMarkWithType events: 14 GCs. */
const FIXTURE = 'compare-server.nettrace.zip';

/** GCMarkWithType: u32 HeapNum, u16 ClrInstanceID, u32 Type, u64 Bytes. GCStart V2: u32 Count, u32 Depth, u32 Reason, u32 Type, … */
const MARK_HEAP_NUM = 0;
const MARK_TYPE = 6;
const START_DEPTH = 4;

/** The fixture with one u32 of its `nth` runtime event `eventId` (at `at` in the payload) set to `value`. */
function mutated(eventId: number, nth: number, at: number, value: number, fixture = FIXTURE): Uint8Array {
  const src = traceBytes(fixture);
  const e = decode(src).events.filter((x) => x.metadata.provider === RUNTIME && x.metadata.eventId === eventId)[nth];
  if (e === undefined) throw new Error(`${fixture}: no event ${eventId} #${nth}`);
  const bytes = src.slice();
  // An uncompressed .nettrace: stream offsets are file offsets.
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).setUint32(e.payloadOffset + at, value, true);
  return bytes;
}

function analyze(bytes: Uint8Array): GCAnalyzer {
  const d = decode(bytes);
  const a = new GCAnalyzer();
  a.setTrace(d.trace!);
  for (const e of d.events) a.onEvent(e);
  a.finish();
  return a;
}

const HUGE = 0xfffffff0;

describe('trace-supplied indexes in the GC analysis (one mutated field of a real fixture)', () => {
  const base = analyze(traceBytes(FIXTURE));
  const gcsOf = (a: GCAnalyzer) => a.gcs.filter((g) => g !== undefined);

  it('the unmutated fixture is what the mutations are measured against', () => {
    expect(gcsOf(base)).toHaveLength(14);
    expect(base.counters.implausibleEvents).toBe(0);
    expect(gcsOf(base).some((g) => (g.markByHeap?.length ?? 0) === 2)).toBe(true);
  });

  it('a GCMarkWithType heap number of ~2^32 is refused and counted, not an array of 2^32 heaps', () => {
    const a = analyze(mutated(RuntimeEvent.GCMarkWithType, 3, MARK_HEAP_NUM, HUGE));
    for (const g of gcsOf(a)) expect(g.markByHeap?.length ?? 0).toBeLessThanOrEqual(2);
    expect(a.counters.undecodableEvents).toBe(base.counters.undecodableEvents + 1);
    expect(a.counters.implausibleEvents).toBe(1);
    expect(a.implausibleReason()).toMatch(
      /^1 GC event skipped for a value no runtime writes: GCMarkWithType HeapNum is 4294967280 \(a runtime writes 0\.\.1023\) \(at byte offset \d+\)$/,
    );
    expect(gcsOf(a)).toHaveLength(14);
  });

  it('a GCMarkWithType mark type of ~2^32 is refused and counted, not an array of 2^32 root kinds', () => {
    const a = analyze(mutated(RuntimeEvent.GCMarkWithType, 3, MARK_TYPE, HUGE));
    for (const g of gcsOf(a)) {
      expect(g.markPromotedBytes?.length ?? 0).toBeLessThanOrEqual(32);
      for (const h of g.markByHeap ?? []) expect(h?.bytes.length ?? 0).toBeLessThanOrEqual(32);
    }
    expect(a.counters.implausibleEvents).toBe(1);
    expect(a.counters.firstImplausible).toMatch(/GCMarkWithType Type is 4294967280/);
  });

  it('a GCStart of generation 258 is refused and counted, never a GC of generation 258', () => {
    const a = analyze(mutated(RuntimeEvent.GCStart, 1, START_DEPTH, 258));
    for (const g of gcsOf(a)) expect(g.generation).toBeLessThanOrEqual(2);
    expect(a.counters.implausibleEvents).toBe(1);
    expect(a.counters.firstImplausible).toMatch(/GCStart Depth \(the generation\) is 258/);
    // That GC is dropped (its number is not invented); the others stay.
    expect(gcsOf(a)).toHaveLength(13);
  });

  it('an AllocationTick of allocation kind 258 is refused and counted, not stored as a sample', () => {
    // A workstation trace with AllocationTicks (compare-server has none); AllocationKind is the second u32.
    const bytes = mutated(RuntimeEvent.GCAllocationTick, 5, 4, 258, 'problem-long-suspension.nettrace.zip');
    const d = decode(bytes);
    const stacks = new StackEvents();
    stacks.setTrace(d.trace!);
    for (const e of d.events) stacks.onEvent(e);
    expect(Math.max(...stacks.tickKind)).toBeLessThanOrEqual(2);
    const a = analyze(bytes);
    expect(a.counters.implausibleEvents).toBe(1);
    expect(a.counters.firstImplausible).toMatch(/GCAllocationTick AllocationKind is 258/);
  });
});

describe('the CLI on those files: no hang, no blow-up, nothing impossible stored', () => {
  let dir: string;
  const files: Record<string, string> = {};
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gcscope-trace-indexes-'));
    const write = (name: string, b: Uint8Array): void => {
      files[name] = join(dir, `${name}.nettrace`);
      writeFileSync(files[name], b);
    };
    write('heap', mutated(RuntimeEvent.GCMarkWithType, 3, MARK_HEAP_NUM, HUGE));
    write('type', mutated(RuntimeEvent.GCMarkWithType, 3, MARK_TYPE, HUGE));
    write('gen', mutated(RuntimeEvent.GCStart, 1, START_DEPTH, 258));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Each spun at 100 % CPU forever before (a 30 s bound stands in for "forever").
  for (const [cmd, extra] of [
    ['report', ['--format', 'json']],
    ['log', []],
    ['diagnose', []],
  ] as const) {
    it(`${cmd} on a file with a huge GCMarkWithType heap number finishes`, async () => {
      const r = await runCli([cmd, files.heap!, ...extra], { timeoutMs: 30_000 });
      expect([0, 3], r.stderr).toContain(r.code);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }, 60_000);
  }

  it('compare of two such files finishes', async () => {
    const r = await runCli(['compare', files.heap!, files.type!], { timeoutMs: 30_000 });
    expect([0, 3], r.stderr).toContain(r.code);
  }, 60_000);

  for (const name of ['heap', 'type', 'gen'] as const) {
    it(`import of the ${name} mutation stores a session that says so and passes sessions --check`, async () => {
      const db = join(dir, `${name}.db`);
      const imp = await runCli(['import', files[name]!, '--db', db, '--json'], { timeoutMs: 30_000 });
      expect(imp.code, imp.stderr).toBe(0);
      const out = JSON.parse(imp.stdout) as { status: string; statusReason: string | null };
      expect(out.status).toBe('complete');
      expect(out.statusReason).toMatch(/^1 GC event skipped for a value no runtime writes: GC(MarkWithType|Start) /);
      const check = await runCli(['sessions', '--db', db, '--check', '--json'], { timeoutMs: 30_000 });
      expect(check.code, check.stderr).toBe(0);
      const s = JSON.parse(check.stdout) as { integrity: string[]; sessions: { undecodableEvents: number }[] };
      expect(s.integrity).toEqual([]);
      expect(s.sessions[0]!.undecodableEvents).toBeGreaterThanOrEqual(1);
    }, 60_000);
  }
});
