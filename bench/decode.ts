/**
 * Decode throughput: `npm run bench:decode [trace …]`. For each trace file, compares
 *   read+sha256  Node reading the file and SHA-256 hashing it (1 MiB chunks) — the baseline
 *   decode       file → reader: framing, headers, metadata, time-ordered event records
 *   +gc-payload  the same, also decoding every CLR GC event payload into typed records
 *   events       what `gcscope events` does (stream order, counts by name, decode check)
 * and prints MB/s, events/s and each ratio to the baseline (best of 10 runs, each mode in a
 * fresh process). Budget
 * (docs/contract.md): decode ≥ 1/3 of read+sha256.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventCensus } from '../src-main/clr/event-census.js';
import { decodeGCEvent } from '../src-main/clr/gc-events.js';
import { readTraceFile } from '../src-main/recording/trace-file.js';
import { traceBytes, unzippedName } from '../test/helpers/fixtures.js';

const OUT = join(process.cwd(), 'test-output', 'bench');
mkdirSync(OUT, { recursive: true });

interface Timing {
  ms: number;
  events?: number;
}

function hashFile(path: string): Timing {
  const t0 = performance.now();
  const fd = openSync(path, 'r');
  const h = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    h.update(buf.subarray(0, n));
  }
  closeSync(fd);
  h.digest();
  return { ms: performance.now() - t0 };
}

async function decodeOnly(path: string): Promise<Timing> {
  const t0 = performance.now();
  const r = await readTraceFile(path, {});
  return { ms: performance.now() - t0, events: r.eventCount };
}

async function decodeWithPayloads(path: string): Promise<Timing> {
  let ps = 8;
  const t0 = performance.now();
  const r = await readTraceFile(path, {
    onTrace: (t) => (ps = t.pointerSize),
    onEvent: (e) => {
      if (e.metadata.provider.startsWith('Microsoft-Windows-DotNETRuntime')) decodeGCEvent(e, ps);
    },
  });
  return { ms: performance.now() - t0, events: r.eventCount };
}

async function eventsCommand(path: string): Promise<Timing> {
  let ps = 8;
  const census = new EventCensus(() => ps);
  const t0 = performance.now();
  const r = await readTraceFile(path, { onTrace: (t) => (ps = t.pointerSize), onMetadata: census.onMetadata, onEvent: census.onEvent }, { sort: false });
  census.sortedCounts();
  return { ms: performance.now() - t0, events: r.eventCount };
}

async function best(f: () => Promise<Timing> | Timing, n = 5): Promise<Timing> {
  let b: Timing | undefined;
  for (let i = 0; i < n; i++) {
    const r = await f();
    if (b === undefined || r.ms < b.ms) b = r;
  }
  return b!;
}

const MODES: Record<string, (path: string) => Promise<Timing> | Timing> = {
  'read+sha256': hashFile,
  decode: decodeOnly,
  '+gc-payload': decodeWithPayloads,
  events: eventsCommand,
};

// Each measurement runs in a fresh process, so one mode's JIT state cannot slow another's.
const child = process.argv.indexOf('--measure');
if (child >= 0) {
  const [mode, path] = [process.argv[child + 1]!, process.argv[child + 2]!];
  process.stdout.write(JSON.stringify(await best(() => MODES[mode]!(path), 10)));
  process.exit(0);
}

const { execFileSync } = await import('node:child_process');
const self = new URL(import.meta.url).pathname;
const names =
  process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['HeartRateMonitor.10068.nettrace.zip', 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip'];
for (const name of names) {
  const local = !existsSync(name);
  const path = local ? join(OUT, unzippedName(name)) : name;
  if (local && !existsSync(path)) writeFileSync(path, traceBytes(name));
  const mb = statSync(path).size / 1e6;
  const rows: [string, Timing][] = Object.keys(MODES).map((mode) => [
    mode,
    JSON.parse(execFileSync(process.execPath, [...process.execArgv, self, '--measure', mode, path], { encoding: 'utf8' })) as Timing,
  ]);
  const base = rows[0]![1];
  console.log(`${unzippedName(name.split('/').pop()!)} (${mb.toFixed(1)} MB, ${rows[1]![1].events} events)`);
  for (const [label, r] of rows) {
    const extra = r.events !== undefined ? `  ${(((r.events / r.ms) * 1000) / 1e6).toFixed(2)} M events/s  ratio ${(base.ms / r.ms).toFixed(2)}` : '';
    console.log(`  ${label.padEnd(12)} ${r.ms.toFixed(1).padStart(8)} ms ${(mb / (r.ms / 1000)).toFixed(0).padStart(6)} MB/s${extra}`);
  }
}
