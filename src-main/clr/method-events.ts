/**
 * Method and module events: what turns a stack's return addresses into method names.
 *
 * Layouts (runtime ClrEtwAll.man templates MethodLoadVerbose_V0..V2 and ModuleLoadUnload_V0..V2;
 * TraceEvent ClrTraceEventParser.cs `MethodLoadUnloadVerboseTraceData`, `ModuleLoadUnloadTraceData`):
 *
 *   MethodLoadVerbose / MethodUnloadVerbose (runtime 143 / 144, Jit or Loader keyword, Verbose)
 *   MethodDCStartVerbose / MethodDCEndVerbose (rundown 143 / 144: the same layout, written for
 *   every method with code when a rundown is requested — jitted and ready-to-run ones alike):
 *     u64 MethodID @0, u64 ModuleID @8, u64 MethodStartAddress @16, u32 MethodSize @24,
 *     u32 MethodToken @28, u32 MethodFlags @32, UTF16z MethodNamespace, UTF16z MethodName,
 *     UTF16z MethodSignature, [V1: u16 ClrInstanceID, [V2: u64 ReJITID]]
 *   ModuleLoad / ModuleUnload (runtime 152 / 153), ModuleDCStart / ModuleDCEnd (rundown 153 / 154):
 *     u64 ModuleID @0, u64 AssemblyID @8, u32 ModuleFlags @16, u32 Reserved1 @20,
 *     UTF16z ModuleILPath, UTF16z ModuleNativePath, [V1: u16 ClrInstanceID, [V2: PDB fields]]
 *
 * The ids are manifest UInt64s, not pointers: 8 bytes in 32-bit processes too.
 *
 * Names follow TraceEvent's TraceLog (`GetFullName`): MethodNamespace (the declaring type's full
 * name, nested types joined by '+') + "." + MethodName + the signature from its '(' on, e.g.
 * `WhoAllocates+ReportCache.Flush()` for the signature `void  ()`.
 */
import { ByteCursor } from '../trace/byte-cursor.js';
import type { TraceEventRecord } from '../trace/model.js';
import { RUNDOWN, RUNTIME } from './gc-events.js';

/** Where a method's code range was learnt. */
export type MethodSource = 'load' | 'unload' | 'rundown-start' | 'rundown-end';

export interface MethodCode {
  kind: 'method';
  source: MethodSource;
  methodId: number;
  moduleId: number;
  start: number;
  size: number;
  token: number;
  flags: number;
  /** TraceLog's full name: `Namespace.Type.Method(args)`. */
  fullName: string;
}

export interface ModuleInfo {
  kind: 'module';
  moduleId: number;
  assemblyId: number;
  flags: number;
  ilPath: string;
  nativePath: string;
}

export type CodeEvent = MethodCode | ModuleInfo;

/**
 * MethodFlags bit (manifest MethodFlagsMap: 0x1 Dynamic, 0x2 Generic, 0x4 HasSharedGenericCode,
 * 0x8 Jitted, …): clear for ready-to-run (precompiled) code, which rundown reports too.
 */
export const METHOD_FLAG_JITTED = 0x8;

const METHOD_EVENTS: Record<string, Partial<Record<number, MethodSource>>> = {
  [RUNTIME]: { 143: 'load', 144: 'unload' },
  [RUNDOWN]: { 143: 'rundown-start', 144: 'rundown-end' },
};
const MODULE_EVENTS: Record<string, readonly number[]> = {
  [RUNTIME]: [152],
  [RUNDOWN]: [153, 154],
};

/** True for the events decodeCodeEvent understands (cheap: provider and id only). */
export function isCodeEvent(e: TraceEventRecord): boolean {
  const md = e.metadata;
  return METHOD_EVENTS[md.provider]?.[md.eventId] !== undefined || MODULE_EVENTS[md.provider]?.includes(md.eventId) === true;
}

/** What a method load/unload/rundown event reports (undefined for other events; provider and id only). */
export function methodSourceOf(md: { provider: string; eventId: number }): MethodSource | undefined {
  return METHOD_EVENTS[md.provider]?.[md.eventId];
}

/** TraceLog's method name: namespace "." name, then the signature's argument list. */
export function methodFullName(namespace: string, name: string, signature: string): string {
  const paren = signature.indexOf('(');
  return `${namespace}.${name}${paren >= 0 ? signature.slice(paren) : ''}`;
}

/**
 * Decodes a method or module load/unload/rundown event, or undefined for any other event (and for
 * a payload too short to hold the fields, which a damaged trace can have: such a method is then
 * simply unknown and its frames show as addresses).
 */
export function decodeCodeEvent(e: TraceEventRecord): CodeEvent | undefined {
  const md = e.metadata;
  const c = new ByteCursor(e.bytes.subarray(e.payloadStart, e.payloadStart + e.payloadSize), e.payloadOffset);
  try {
    const source = METHOD_EVENTS[md.provider]?.[md.eventId];
    if (source !== undefined) {
      const methodId = c.u64();
      const moduleId = c.u64();
      const start = c.u64();
      const size = c.u32();
      const token = c.u32();
      const flags = c.u32();
      const ns = c.utf16z();
      const name = c.utf16z();
      const sig = c.utf16z();
      return { kind: 'method', source, methodId, moduleId, start, size, token, flags, fullName: methodFullName(ns, name, sig) };
    }
    if (MODULE_EVENTS[md.provider]?.includes(md.eventId) === true) {
      const moduleId = c.u64();
      const assemblyId = c.u64();
      const flags = c.u32();
      c.u32(); // Reserved1
      return { kind: 'module', moduleId, assemblyId, flags, ilPath: c.utf16z(), nativePath: c.utf16z() };
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * TraceLog's full name from a method event's three strings (`names`: the payload from offset 36,
 * which symbols/method-map.ts keeps undecoded until a stack needs the name); undefined when damaged.
 */
export function methodCodeName(m: { names: Uint8Array; namesOffset: number }): string | undefined {
  const c = new ByteCursor(m.names, m.namesOffset);
  try {
    const ns = c.utf16z();
    const name = c.utf16z();
    return methodFullName(ns, name, c.utf16z());
  } catch {
    return undefined;
  }
}
