/**
 * ETW event headers inside a buffer (docs/formats.md "ETL", etl.md §1.2). Every event starts
 * with `u16 a, u8 HeaderType, u8 MarkerFlags (0xC0)` and is 8-byte aligned. The header type
 * also says the emitting process's pointer size. Field offsets used here:
 *
 * - SYSTEM32/64 (1/2), SYSTEM_TRACE_HEADER, 0x20: `u16 Version, u8 Type, u8 Flags, u16 Size,
 *   u8 Opcode, u8 Group, u32 TID @8, u32 PID @0xC, i64 TS @0x10, u32 KernelTime, u32 UserTime`.
 * - COMPACT32/64 (3/4): the same without the CPU times, 0x18.
 * - PERFINFO32/64 (16/17), 0x10: `u16 Version, u8 Type, u8 Flags, u16 Size, u8 Opcode, u8 Group,
 *   i64 TS @8` (no PID/TID).
 * - EVENT_HEADER32/64 (18/19), 0x50: `u16 Size, u8 Type, u8 0xC0, u16 Flags @4, u16 Property,
 *   u32 TID @8, u32 PID @0xC, i64 TS @0x10, GUID @0x18, u16 Id @0x28, u8 Version, u8 Channel,
 *   u8 Level @0x2C, u8 Opcode @0x2D, u16 Task, u64 Keyword @0x30, u32 KernelTime, u32 UserTime,
 *   GUID ActivityId @0x40`; extended data items follow when Flags & 1.
 * - FULL_HEADER32/64 (10/20), EVENT_TRACE_HEADER, 0x30: `u16 Size, u8 Type, u8 0xC0, u8 Opcode @4,
 *   u8 Level, u16 Version @6, u32 TID @8, u32 PID @0xC, i64 TS @0x10, GUID @0x18, u32, u32`.
 * - INSTANCE32/64 (11/21), MESSAGE (15), WNODE (14) and unknown types: `u16 Size` first; skipped.
 */

export const enum HeaderType {
  System32 = 1,
  System64 = 2,
  Compact32 = 3,
  Compact64 = 4,
  FullHeader32 = 10,
  Instance32 = 11,
  Wnode = 14,
  Message = 15,
  PerfInfo32 = 16,
  PerfInfo64 = 17,
  EventHeader32 = 18,
  EventHeader64 = 19,
  FullHeader64 = 20,
  Instance64 = 21,
}

/** How an event is read, by header type: 0 skip, 1 kernel (SYSTEM/COMPACT), 2 PERFINFO, 3 EVENT_HEADER, 4 classic FULL_HEADER. */
export const KIND_SKIP = 0;
export const KIND_SYSTEM = 1;
export const KIND_PERFINFO = 2;
export const KIND_EVENT = 3;
export const KIND_CLASSIC = 4;

/** Per header type (0..31): kind, header size, pointer size (0 = unknown). */
export const HEADER_KIND = new Uint8Array(32);
export const HEADER_SIZE = new Uint8Array(32);
export const HEADER_POINTER = new Uint8Array(32);
for (const [t, kind, size, ptr] of [
  [1, KIND_SYSTEM, 0x20, 4],
  [2, KIND_SYSTEM, 0x20, 8],
  [3, KIND_SYSTEM, 0x18, 4],
  [4, KIND_SYSTEM, 0x18, 8],
  [10, KIND_CLASSIC, 0x30, 4],
  [20, KIND_CLASSIC, 0x30, 8],
  [16, KIND_PERFINFO, 0x10, 4],
  [17, KIND_PERFINFO, 0x10, 8],
  [18, KIND_EVENT, 0x50, 4],
  [19, KIND_EVENT, 0x50, 8],
  [11, KIND_SKIP, 0, 4],
  [21, KIND_SKIP, 0, 8],
  [14, KIND_SKIP, 0, 0],
  [15, KIND_SKIP, 0, 0],
] as const) {
  HEADER_KIND[t] = kind;
  HEADER_SIZE[t] = size;
  HEADER_POINTER[t] = ptr;
}

/** Header types this reader knows (others are skipped by their u16 Size, as INSTANCE is). */
export function knownHeaderType(t: number): boolean {
  return t < 32 && (HEADER_SIZE[t] !== 0 || t === 11 || t === 21 || t === 14 || t === 15);
}

/** The event's total size (header included), from where its header type keeps it. */
export function eventSize(b: Uint8Array, p: number, type: number): number {
  const kind = type < 32 ? HEADER_KIND[type]! : KIND_SKIP;
  // SYSTEM / COMPACT / PERFINFO keep Size at +4; the others (and unknown types) at +0.
  return kind === KIND_SYSTEM || kind === KIND_PERFINFO ? b[p + 4]! | (b[p + 5]! << 8) : b[p]! | (b[p + 1]! << 8);
}

export function u32(b: Uint8Array, p: number): number {
  return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
}
export function u16(b: Uint8Array, p: number): number {
  return b[p]! | (b[p + 1]! << 8);
}
/** A signed 64-bit little-endian integer as a number (exact within ±2^53: QPC values and FILETIMEs are). */
export function i64(b: Uint8Array, p: number): number {
  return (b[p + 4]! | (b[p + 5]! << 8) | (b[p + 6]! << 16) | (b[p + 7]! << 24)) * 4294967296 + u32(b, p);
}

/** The 16 bytes at `p` as a GUID in registry form (first three groups little-endian). */
export function guidAt(b: Uint8Array, p: number): string {
  const h = (i: number): string => b[p + i]!.toString(16).padStart(2, '0');
  return h(3) + h(2) + h(1) + h(0) + '-' + h(5) + h(4) + '-' + h(7) + h(6) + '-' + h(8) + h(9) + '-' + h(10) + h(11) + h(12) + h(13) + h(14) + h(15);
}

/** Classic kernel groups (HookId >> 8) by name, as TraceEvent's kernel parser names them. */
const GROUPS: Record<number, string> = {
  0: 'EventTrace',
  1: 'DiskIO',
  2: 'Memory',
  3: 'Process',
  4: 'FileIO',
  5: 'Thread',
  6: 'TcpIp',
  8: 'UdpIp',
  9: 'Registry',
  0x0b: 'SystemConfig',
  0x0f: 'PerfInfo',
  0x14: 'Image',
  0x18: 'StackWalk',
};
export function kernelGroupName(group: number): string {
  return GROUPS[group] ?? `Group(${group})`;
}
