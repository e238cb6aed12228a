/**
 * The kernel's Image events (Load is hook 0x030A — the Process group, opcode 10, as TraceEvent
 * reads it; Unload, DCStart and DCEnd are group 0x14 opcodes 2, 3, 4; version
 * 2/3 layout; etl.md §1.4): where each process's executable images (.exe, .dll, NGEN images) sit
 * in memory, so a stack frame no CLR method covers can still be named `module!0xRVA`:
 *
 *   ptr ImageBase · ptr ImageSize · u32 ProcessId · u32 ImageCheckSum · u32 TimeDateStamp
 *   u32 Reserved0 · ptr DefaultBase · u32 Reserved1..4 · UTF-16 FileName
 *
 * `ptr` is the kernel's pointer size (the header type's). The process is the payload's, not the
 * header's: DCStart events come with PERFINFO headers, which carry no process id. Pure.
 */
import { ByteCursor } from '../trace/byte-cursor.js';
import type { TraceImage } from '../trace/model.js';

/** Kernel (group, opcode) pairs that report an image mapped in a process: Load (3/10), Unload (0x14/2), DCStart (0x14/3), DCEnd (0x14/4). */
export function isImageEvent(group: number, opcode: number): boolean {
  return group === 0x14 ? opcode >= 2 && opcode <= 4 : group === 3 && opcode === 10;
}

/** Undefined when the payload is not a layout this knows (version 0/1, damage) or names no process. */
export function readImageEvent(payload: Uint8Array, offset: number, version: number, ptr: number): TraceImage | undefined {
  if (version < 2) return undefined;
  try {
    const c = new ByteCursor(payload, offset);
    const imageBase = c.ptr(ptr);
    const imageSize = c.ptr(ptr);
    const processId = c.u32();
    c.skip(12); // ImageCheckSum, TimeDateStamp, Reserved0
    c.skip(ptr); // DefaultBase
    c.skip(16); // Reserved1..4
    const fileName = c.utf16z();
    if (imageSize <= 0 || processId === 0) return undefined;
    return { processId, imageBase, imageSize, fileName };
  } catch {
    return undefined;
  }
}
