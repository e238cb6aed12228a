/**
 * The trace header object: when the trace started (wall clock and tick value), the tick rate,
 * pointer size, process id and CPU count.
 *
 * V3–V5 (NetTraceFormat_v5.md "The First Object"): 48 bytes — SYSTEMTIME SyncTimeUTC (8 × i16),
 * i64 SyncTimeQPC, i64 QPCFrequency, i32 PointerSize, i32 ProcessId, i32 NumberOfProcessors,
 * i32 ExpectedCPUSamplingRate.
 * V6 (NetTraceFormat.md "Trace block"): SYSTEMTIME, i64 SyncTimeTicks, i64 TickFrequency,
 * i32 PointerSize, i32 KeyValueCount, then that many (string key, string value) pairs with the
 * well-known keys HardwareThreadCount, ProcessId, ExpectedCPUSamplingRate.
 */
import type { ByteCursor } from '../trace/byte-cursor.js';
import { NettraceError } from './errors.js';
import type { NettraceContainer, TraceInfo } from './types.js';

export interface SyncClock {
  /** Exact tick value at sync time. */
  syncQpc: bigint;
}

function readSystemTime(c: ByteCursor): { iso: string; unixMs: number } {
  const year = c.i16();
  const month = c.i16();
  c.i16(); // day of week: implied by the date
  const day = c.i16();
  const hour = c.i16();
  const minute = c.i16();
  const second = c.i16();
  const ms = c.i16();
  const unixMs = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const valid = Number.isFinite(unixMs) && month >= 1 && month <= 12 && day >= 1 && day <= 31;
  return { iso: valid ? new Date(unixMs).toISOString() : 'invalid', unixMs: valid ? unixMs : 0 };
}

function validate(info: TraceInfo, offset: number): TraceInfo {
  if (info.pointerSize !== 4 && info.pointerSize !== 8) {
    throw new NettraceError('bad-block', offset, `trace header gives pointer size ${info.pointerSize}; only 4 and 8 exist`);
  }
  if (!(info.qpcFrequency > 0)) {
    throw new NettraceError('bad-block', offset, `trace header gives clock frequency ${info.qpcFrequency}; it must be positive`);
  }
  return info;
}

export function parseTraceObjectV3to5(c: ByteCursor, format: NettraceContainer, formatVersion: number): { info: TraceInfo; syncQpc: bigint } {
  const start = c.offset;
  const t = readSystemTime(c);
  const syncQpc = c.i64big();
  const freq = Number(c.i64big());
  const pointerSize = c.i32();
  const processId = c.i32();
  const numberOfProcessors = c.i32();
  const expectedCpuSamplingRate = c.i32();
  const info: TraceInfo = {
    format,
    formatVersion,
    formatMinorVersion: 0,
    syncTimeUtc: t.iso,
    syncTimeUnixMs: t.unixMs,
    syncTimeQpc: syncQpc.toString(),
    qpcFrequency: freq,
    pointerSize,
    processId,
    numberOfProcessors,
    expectedCpuSamplingRate,
    keyValues: {},
  };
  return { info: validate(info, start), syncQpc };
}

export function parseTraceBlockV6(c: ByteCursor, major: number, minor: number): { info: TraceInfo; syncQpc: bigint } {
  const start = c.offset;
  const t = readSystemTime(c);
  const syncQpc = c.i64big();
  const freq = Number(c.i64big());
  const pointerSize = c.i32();
  const kvCount = c.i32();
  if (kvCount < 0 || kvCount > 65536) throw new NettraceError('bad-block', c.offset - 4, `implausible key/value count ${kvCount}`);
  const keyValues: Record<string, string> = {};
  for (let i = 0; i < kvCount; i++) {
    const k = c.utf8v();
    keyValues[k] = c.utf8v();
  }
  const int = (k: string): number => {
    const v = Number.parseInt(keyValues[k] ?? '', 10);
    return Number.isFinite(v) ? v : 0;
  };
  const info: TraceInfo = {
    format: 'NetTrace',
    formatVersion: major,
    formatMinorVersion: minor,
    syncTimeUtc: t.iso,
    syncTimeUnixMs: t.unixMs,
    syncTimeQpc: syncQpc.toString(),
    qpcFrequency: freq,
    pointerSize,
    processId: int('ProcessId'),
    numberOfProcessors: int('HardwareThreadCount'),
    expectedCpuSamplingRate: int('ExpectedCPUSamplingRate'),
    keyValues,
  };
  return { info: validate(info, start), syncQpc };
}
