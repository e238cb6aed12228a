/**
 * A made-up machine-wide trace format, standing in for ETW's .etl (which holds every process on
 * the machine) in the tests of everything a user touches for such traces: process lists, --pid,
 * one session per process, the app's process picker. A text file:
 *
 *   TOYMACHINE <cpus>
 *   P <pid> <pointer size> <image name> <command line…>     (every process, before any event)
 *   E <pid> <ms> <thread> <event> <field>…                 (one event)
 *
 * Events are CLR runtime events by their TraceEvent name with their payload's fields in the CLR's
 * layout order (as test/trace/toy-format.ts), plus `RuntimeInformation <sku> <bcl a.b.c.d> <vm
 * a.b.c.d> <startup flags>` (event 187's real layout). The reader implements what a machine-wide
 * reader must: `processes` (known by the first event) and the `processId` filter (only that
 * process's events, and its id and pointer size in the trace's header).
 */
import { TraceDecodeError } from '../../src-main/trace/errors.js';
import type { ReaderState, TraceEventRecord, TraceInfo, TraceProcess } from '../../src-main/trace/model.js';
import type { TraceFormat, TraceReader, TraceReaderHandlers, TraceReaderOptions } from '../../src-main/trace/reader.js';
import { sniffMagic, TOY_EVENTS, ToyLines, ToyMetadata, toyPayload, type ToyEventLayout } from './toy-events.js';

/** The runtime events of the single-process toy format, plus RuntimeInformation (its own encoder below). */
const EVENTS: Readonly<Record<string, ToyEventLayout>> = { ...TOY_EVENTS, RuntimeInformation: { id: 187, version: 0, fields: [] } };

const MAGIC = 'TOYMACHINE ';

class MachineToyReader implements TraceReader {
  state: ReaderState = 'reading';
  error: TraceDecodeError | undefined;
  trace: TraceInfo | undefined;
  eventCount = 0;
  droppedEvents = 0;
  blockCounts: Record<string, number> = {};
  releasedBefore = 0;
  private readonly listed: TraceProcess[] = [];
  private cpus = 0;
  private readonly lines = new ToyLines((l) => this.line(l));
  private readonly metadata: ToyMetadata;

  constructor(
    private readonly handlers: TraceReaderHandlers,
    private readonly options: TraceReaderOptions,
  ) {
    this.metadata = new ToyMetadata(handlers.onMetadata);
  }

  get formatName(): string {
    return this.trace === undefined ? 'unknown' : 'ToyMachine V1';
  }

  get offset(): number {
    return this.lines.offset;
  }

  /** Known once the process lines are read (they come before any event). */
  get processes(): readonly TraceProcess[] | undefined {
    return this.trace === undefined ? undefined : this.listed;
  }

  push(chunk: Uint8Array): void {
    this.lines.push(chunk);
  }

  end(): void {
    if (this.state !== 'reading') return;
    this.lines.end();
    this.header();
    this.state = this.cpus > 0 ? 'complete' : 'truncated';
    if (this.cpus === 0) this.error = new TraceDecodeError('truncated', this.offset, 'no TOYMACHINE header');
  }

  eventStack(): Float64Array | undefined {
    return undefined;
  }

  /** The header, once the process lines are all read (before the first event). */
  private header(): void {
    if (this.trace !== undefined || this.cpus === 0) return;
    const pid = this.options.processId;
    const p = this.listed.find((x) => x.processId === pid);
    this.trace = {
      format: 'ToyMachine',
      formatVersion: 1,
      formatMinorVersion: 0,
      syncTimeUtc: '2026-01-01T00:00:00.000Z',
      syncTimeUnixMs: Date.UTC(2026, 0, 1),
      syncTimeQpc: '0',
      qpcFrequency: 1000,
      pointerSize: p?.pointerSize ?? 8,
      processId: pid ?? 0,
      numberOfProcessors: this.cpus,
      expectedCpuSamplingRate: 0,
      keyValues: {},
    };
    this.handlers.onTrace?.(this.trace);
  }

  private line(s: string): void {
    const w = s.trim().split(/\s+/);
    if (w[0] === '') return;
    if (this.cpus === 0) {
      this.cpus = Number(w[1]);
      return;
    }
    if (w[0] === 'P') {
      this.listed.push({ processId: Number(w[1]), pointerSize: Number(w[2]), name: w[3] ?? '', commandLine: w.slice(4).join(' ') });
      return;
    }
    this.header();
    const [, pidText, ms, thread, name, ...values] = w;
    const pid = Number(pidText);
    const layout = EVENTS[name!];
    if (layout === undefined) {
      this.state = 'failed';
      this.error = new TraceDecodeError('bad-event', this.offset, `unknown toy event "${name}"`);
      throw this.error;
    }
    if (this.options.processId !== undefined && pid !== this.options.processId) return;
    const bytes =
      name === 'RuntimeInformation'
        ? runtimeInformation(values, this.listed.find((p) => p.processId === pid)?.commandLine ?? '')
        : toyPayload(layout.fields, values);
    const e: TraceEventRecord = {
      metadata: this.metadata.of(name!, layout),
      timestamp: Number(ms),
      threadId: Number(thread),
      captureThreadId: Number(thread),
      processorNumber: 0,
      sequenceNumber: this.eventCount,
      stackId: 0,
      processId: pid,
      activityId: undefined,
      bytes,
      payloadStart: 0,
      payloadSize: bytes.length,
      payloadOffset: this.offset,
    };
    this.eventCount++;
    this.handlers.onEvent?.(e);
  }
}

/** RuntimeInformation's layout: ClrInstanceID, Sku, Bcl and VM versions (4 × u16 each), StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath. */
function runtimeInformation(values: string[], commandLine: string): Uint8Array {
  const [sku, bcl, vm, flags] = values;
  const ver = (v: string | undefined): number[] => (v ?? '0.0.0.0').split('.').map(Number);
  const dll =
    sku === '2'
      ? `C:\\Program Files\\dotnet\\shared\\Microsoft.NETCore.App\\${bcl}\\coreclr.dll`
      : 'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\clr.dll';
  const out: number[] = [];
  const u16 = (n: number): void => void out.push(n & 0xff, (n >> 8) & 0xff);
  const str = (s: string): void => {
    for (const c of s) u16(c.charCodeAt(0));
    u16(0);
  };
  u16(9);
  u16(Number(sku));
  for (const n of [...ver(bcl), ...ver(vm)]) u16(n);
  const f = Number(flags ?? 0);
  out.push(f & 0xff, (f >> 8) & 0xff, (f >> 16) & 0xff, (f >>> 24) & 0xff);
  out.push(0);
  str(commandLine);
  for (let i = 0; i < 16; i++) out.push(0);
  str(dll);
  return new Uint8Array(out);
}

export const MACHINE_TOY_FORMAT: TraceFormat = {
  name: 'ToyMachine',
  extensions: ['.toymachine'],
  sniff: (first) => sniffMagic(MAGIC, first),
  create: (handlers, options) => new MachineToyReader(handlers, options),
};

export interface ToyProcess {
  pid: number;
  name: string;
  pointerSize?: number;
  commandLine?: string;
  /** 1 Desktop CLR, 2 CoreCLR; none: not a .NET process (no CLR event at all). */
  sku?: 1 | 2;
  version?: string;
  /** gen0 GCs, 10 ms apart, each a `pauseMs` pause. */
  gcs?: number;
  pauseMs?: number;
}

/** A machine-wide toy trace of these processes, their events interleaved in time. */
export function machineTrace(processes: readonly ToyProcess[]): string {
  const lines = ['TOYMACHINE 8'];
  for (const p of processes) lines.push(`P ${p.pid} ${p.pointerSize ?? 8} ${p.name} ${p.commandLine ?? p.name}`);
  const events: [number, string][] = [];
  processes.forEach((p, k) => {
    if (p.sku === undefined) return;
    const vm = p.sku === 1 ? '4.0.30319.42000' : (p.version ?? '8.0.11.0');
    const bcl = p.sku === 1 ? '4.8.4645.0' : (p.version ?? '8.0.11');
    events.push([1 + k * 0.01, `E ${p.pid} ${1 + k * 0.01} 1 RuntimeInformation ${p.sku} ${bcl} ${vm} 0`]);
    const pause = p.pauseMs ?? 2;
    for (let i = 1; i <= (p.gcs ?? 0); i++) {
      const t = i * 10 + k * 0.05;
      const at = (dt: number, rest: string): void => void events.push([t + dt, `E ${p.pid} ${t + dt} 7 ${rest}`]);
      at(0, `SuspendEEBegin 1 ${i}`);
      at(0.1, 'SuspendEEEnd');
      at(0.2, `GCStart ${i} 0 0 0`);
      at(pause * 0.6, `GCEnd ${i} 0`);
      at(pause * 0.7, `HeapStats ${1e6 * i} 0 2000000 100000 3000000 0 400000 0 0 0 0 0 5`);
      at(pause * 0.9, 'RestartEEBegin');
      at(pause, 'RestartEEEnd');
    }
  });
  events.sort((a, b) => a[0] - b[0]);
  for (const [, l] of events) lines.push(l);
  return lines.join('\n') + '\n';
}

/** Three .NET processes (264, 40 and 0 GCs) and one that is not .NET, like a PerfView trace of a test run. */
export const THREE_DOTNET: readonly ToyProcess[] = [
  { pid: 4100, name: 'explorer.exe' },
  { pid: 1234, name: 'Test.x64.exe', sku: 1, gcs: 264, pauseMs: 2, commandLine: '"C:\\tests\\Test.x64.exe" /run' },
  { pid: 5678, name: 'Worker.exe', sku: 2, version: '8.0.11', gcs: 40, pauseMs: 5, pointerSize: 4 },
  { pid: 9012, name: 'Idle.exe', sku: 2, version: '6.0.36' },
];
