/**
 * TRACE_LOGFILE_HEADER: the payload of the first event of the first buffer (a SYSTEM header,
 * group 0 opcode 0, "EventTrace/Header"; etl.md §1.3, Geoff Chappell's TRACE_LOGFILE_HEADER).
 *
 *   0x00 u32 BufferSize · 0x04 u32 Version · 0x08 u32 ProviderVersion (OS build)
 *   0x0C u32 NumberOfProcessors · 0x10 i64 EndTime · 0x18 u32 TimerResolution
 *   0x1C u32 MaximumFileSize · 0x20 u32 LogFileMode · 0x24 u32 BuffersWritten
 *   0x28 u32 StartBuffers · 0x2C u32 PointerSize · 0x30 u32 EventsLost · 0x34 u32 CpuSpeedInMHz
 *   then two pointer-sized string pointers, TIME_ZONE_INFORMATION (0xAC, Bias first), then
 *   i64 BootTime, i64 PerfFreq, i64 StartTime (FILETIME, UTC), u32 ReservedFlags (ClockType),
 *   u32 BuffersLost, then the UTF-16 logger and log-file names.
 *
 * PointerSize precedes the pointers, so it decides the rest: with 8, PerfFreq is at 0x100; with
 * 4 everything after 0x38 moves 8 bytes down. BootTime is 8-byte aligned after the 0xAC-byte
 * TIME_ZONE_INFORMATION (4 bytes of padding). Pure.
 */
import { ByteCursor } from '../trace/byte-cursor.js';
import { EtlError } from './errors.js';

export interface LogFileHeader {
  bufferSize: number;
  version: number;
  providerVersion: number;
  numberOfProcessors: number;
  logFileMode: number;
  buffersWritten: number;
  pointerSize: number;
  eventsLost: number;
  buffersLost: number;
  /** Minutes west of UTC (TIME_ZONE_INFORMATION.Bias). */
  utcOffsetMinutes: number;
  perfFreq: number;
  /** FILETIME (100 ns since 1601, UTC) of the trace's start. */
  startTime: number;
  /** 1 QPC, 2 system time, 3 CPU cycles. */
  clockType: number;
  loggerName: string;
  logFileName: string;
}

/** FILETIME of the Unix epoch. */
export const FILETIME_UNIX_EPOCH = 116444736000000000;

export function readLogFileHeader(payload: Uint8Array, offset: number): LogFileHeader {
  const c = new ByteCursor(payload, offset);
  const bufferSize = c.u32();
  const version = c.u32();
  const providerVersion = c.u32();
  const numberOfProcessors = c.u32();
  c.skip(8); // EndTime
  c.skip(8); // TimerResolution, MaximumFileSize
  const logFileMode = c.u32();
  const buffersWritten = c.u32();
  c.skip(4); // StartBuffers
  const pointerSize = c.u32();
  if (pointerSize !== 4 && pointerSize !== 8) {
    throw new EtlError(
      'bad-magic',
      offset + 0x2c,
      `the ETW log-file header gives a pointer size of ${pointerSize}; only 4 and 8 exist, so this is not an .etl the reader understands`,
    );
  }
  const eventsLost = c.u32();
  c.skip(4); // CpuSpeedInMHz
  c.skip(2 * pointerSize); // LoggerName, LogFileName pointers (meaningless in a file)
  const utcOffsetMinutes = c.i32();
  c.skip(0xac - 4); // rest of TIME_ZONE_INFORMATION
  c.skip(c.pos & 4); // BootTime is 8-byte aligned (0xF8 with 8-byte pointers, 0xF0 with 4)
  c.skip(8); // BootTime
  const perfFreq = c.i64();
  const startTime = c.i64();
  const clockType = c.u32();
  const buffersLost = c.u32();
  let loggerName = '';
  let logFileName = '';
  try {
    loggerName = c.utf16z();
    logFileName = c.utf16z();
  } catch {
    // The names are optional (some relogged headers end early): the clock is what matters.
  }
  if (!(perfFreq > 0)) {
    throw new EtlError('bad-magic', offset, `the ETW log-file header gives a clock frequency of ${perfFreq}: the trace's times cannot be read`);
  }
  return {
    bufferSize,
    version,
    providerVersion,
    numberOfProcessors,
    logFileMode,
    buffersWritten,
    pointerSize,
    eventsLost,
    buffersLost,
    utcOffsetMinutes,
    perfFreq,
    startTime,
    clockType,
    loggerName,
    logFileName,
  };
}
