/** `gcscope heap`: what a user sees for a .gcdump (types, retainers, paths, diffs) and the exit codes on bad input. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { runCli } from '../helpers/cli.js';

const HEAP = FIXTURES + 'heap/';
const OUT = join(process.cwd(), 'test-output', 'cli-heap');
mkdirSync(OUT, { recursive: true });

interface HeapJson {
  objects: number;
  bytes: number;
  references: number;
  types: {
    name: string;
    fullName: string;
    count: number;
    bytes: number;
    retainedBytes: number;
    countDelta?: number;
    bytesDelta?: number;
    retainedBytesDelta?: number;
    isNew?: boolean;
  }[];
  paths?: { name: string; bytes: number; retainedBytes: number }[][];
  pathInstances?: number[];
  dominators?: { name: string; retainedBytes: number; children: unknown[] }[];
  objectsDelta?: number;
}

async function heapJson(args: string[]): Promise<HeapJson> {
  const r = await runCli(['heap', ...args, '--format', 'json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as HeapJson;
}

describe('gcscope heap', () => {
  it('--format json lists objects, bytes, references and every type with count, bytes and retained bytes', async () => {
    const j = await heapJson([HEAP + 'workload-3000.gcdump']);
    // The workload's heap as dotnet-gcdump wrote it: 21,805 nodes of which the roots are pseudo-nodes.
    expect(j.bytes).toBe(1_522_646);
    expect(j.objects).toBeGreaterThan(21_000);
    expect(j.objects).toBeLessThan(21_805);
    expect(j.references).toBeGreaterThan(j.objects);
    const customer = j.types.find((t) => t.name === 'Customer')!;
    expect(customer).toMatchObject({ count: 3000, bytes: 3000 * 48 });
    // Each customer retains its name, photo, orders and their array, none of the others'.
    expect(customer.retainedBytes).toBeGreaterThan(3000 * 300);
    expect(j.types.find((t) => t.name === 'Dictionary<int, Customer>')).toMatchObject({ count: 1 });
    expect(j.types.find((t) => t.name === 'byte[]')!.count).toBeGreaterThanOrEqual(3000);
    const sum = j.types.reduce((s, t) => s + t.bytes, 0);
    expect(sum).toBe(j.bytes);
  });

  it('--path gives the chain from the static that holds the customers', async () => {
    const j = await heapJson([HEAP + 'workload-3000.gcdump', '--path', 'Customer']);
    const names = j.paths![0]!.map((n) => n.name);
    expect(names[0]).toMatch(/^\[static var .*\.Customers\]$/);
    expect(names.slice(1)).toEqual(['Dictionary<int, Customer>', 'Entry<int, Customer>[]', 'Customer']);
    expect(j.pathInstances![0]).toBeGreaterThanOrEqual(2998);
  });

  it('--diff says which type grew by how much, second minus first', async () => {
    const j = await heapJson([HEAP + 'workload-3000.gcdump', '--diff', HEAP + 'workload-3500.gcdump']);
    const by = new Map(j.types.map((t) => [t.name, t]));
    expect(by.get('Customer')).toMatchObject({ count: 3500, countDelta: 500, bytesDelta: 500 * 48, isNew: false });
    expect(by.get('Order')).toMatchObject({ countDelta: 1500 });
    expect(j.objectsDelta).toBeGreaterThan(3500);
    // Biggest growth in bytes first.
    expect(j.types[0]!.bytesDelta).toBeGreaterThanOrEqual(j.types[1]!.bytesDelta!);
  });

  it('text output: a type table, biggest retainers and the diff read as a person would', async () => {
    const t = await runCli(['heap', HEAP + 'workload-3000.gcdump', '--top', '5']);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/^.*workload-3000\.gcdump: [\d,]+ objects, 1\.5 MB \(1,522,646 bytes\), [\d,]+ references$/m);
    expect(t.stdout).toMatch(/^\s+3,000\s+144,000\s+[\d,]+\s+Customer$/m);
    const d = await runCli(['heap', HEAP + 'workload-3000.gcdump', '--by', 'dominators', '--top', '3']);
    expect(d.stdout).toContain('Biggest retainers');
    const diff = await runCli(['heap', HEAP + 'workload-3000.gcdump', '--diff', HEAP + 'workload-3500.gcdump']);
    expect(diff.stdout).toMatch(/^\s+\+500\s+\+24,000\s+[+\d,]+\s+3,500\s+Customer$/m);
  });

  it('opens the public dotnet-gcdump and PerfView files', async () => {
    const mono = await heapJson([HEAP + 'heapview-sample-monovm.gcdump', '--top', '3']);
    expect(mono.bytes).toBe(1_309_128);
    expect(mono.types).toHaveLength(3);
    const js = await heapJson([HEAP + 'perfview-test1-jscript.gcdump', '--top', '3']);
    expect(js.bytes).toBe(1_009_270);
  });

  it('bad input: one line on stderr with the byte offset, exit 2', async () => {
    const good = readFileSync(HEAP + 'workload-3000.gcdump');
    const cut = join(OUT, 'cut.gcdump');
    writeFileSync(cut, good.subarray(0, 100_000));
    const r = await runCli(['heap', cut]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/(truncated|too-large): .*cut short.*at byte offset \d+/);
    const huge = Buffer.from(good);
    // The type count (after the MemoryGraph's type header): an absurd 2^31−1.
    huge.writeInt32LE(0x7fffffff, 96);
    const hugeFile = join(OUT, 'huge-count.gcdump');
    writeFileSync(hugeFile, huge);
    const h = await runCli(['heap', hugeFile]);
    expect(h.code).toBe(2);
    expect(h.stderr).toMatch(/too-large: the type count claims 2,147,483,647 items/);
    const notSnapshot = await runCli(['heap', FIXTURES + 'heap/workload-3000.report.txt']);
    expect(notSnapshot.code).toBe(2);
    expect(notSnapshot.stderr.trim().split('\n')).toHaveLength(1);
    const noType = await runCli(['heap', HEAP + 'workload-3000.gcdump', '--path', 'NoSuchTypeAnywhere']);
    expect(noType.code).toBe(2);
    expect(noType.stderr).toMatch(/no type named "NoSuchTypeAnywhere"/);
  });
});
