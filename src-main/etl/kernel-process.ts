/**
 * The kernel's Process events (group 3; opcodes 1 Start, 2 End, 3 DCStart, 4 DCEnd; version 3/4
 * layout; etl.md §1.4), for process names and command lines:
 *
 *   ptr UniqueProcessKey · u32 ProcessId · u32 ParentId · u32 SessionId · i32 ExitStatus
 *   ptr DirectoryTableBase · [V4: u32 Flags] · SID (4 zero bytes, or 2×ptr then a SID of
 *   8 + 4×SubAuthorityCount bytes) · ANSI ImageFileName · UTF-16 CommandLine · …
 *
 * `ptr` is the kernel's pointer size (the header type's). Pure.
 */
import { ByteCursor } from '../trace/byte-cursor.js';

export interface KernelProcess {
  processId: number;
  name: string;
  commandLine: string;
}

const latin1 = new TextDecoder('latin1');

/** Undefined when the payload is not a layout this knows (older versions, damage). */
export function readProcessEvent(payload: Uint8Array, offset: number, version: number, ptr: number): KernelProcess | undefined {
  if (version < 3) return undefined;
  try {
    const c = new ByteCursor(payload, offset);
    c.skip(ptr);
    const processId = c.u32();
    c.skip(12); // ParentId, SessionId, ExitStatus
    c.skip(ptr); // DirectoryTableBase
    if (version >= 4) c.skip(4); // Flags
    // The SID: a zero u32, or a TOKEN_USER (2 pointers) followed by the SID itself.
    if (c.u32() !== 0) {
      c.pos -= 4;
      c.skip(2 * ptr);
      c.need(8, 'a SID');
      const subAuthorities = c.bytes[c.pos + 1]!;
      c.skip(8 + 4 * subAuthorities);
    }
    const start = c.pos;
    while (c.u8() !== 0);
    const name = latin1.decode(c.bytes.subarray(start, c.pos - 1));
    let commandLine = '';
    try {
      commandLine = c.utf16z();
    } catch {
      // a cut-short command line: keep the name
    }
    return { processId, name, commandLine };
  } catch {
    return undefined;
  }
}
