/**
 * Recording profiles: which providers, keywords and levels to ask for (docs/formats.md §1.10, after
 * dotnet-trace's `gc-collect` and `gc-verbose`).
 * - gc-collect: GC keyword at Informational on the runtime and private providers — every
 *   collection with its pauses, sizes and per-heap history, at very low overhead.
 * - gc-verbose: GC | GCHandle | Exception at Verbose on the runtime provider — adds
 *   AllocationTick (allocation by type), pinning and finalization detail; costs more. Plus the
 *   private provider's GC keyword at Informational, as gc-collect has it (LOH allocation waits
 *   during background GCs: the loh-alloc-wait finding says "not measured" without them).
 * - gc-survival: gc-collect plus GCHeapSurvivalAndMovement (0x400000) — for every GC, the ranges
 *   of objects that survived (sweeping GCs) or moved (compacting GCs), what the profiling API's
 *   SurvivingReferences / MovedReferences report. These events are large: one range per plug, tens
 *   of KB per GC and several MB/s on a busy server, and the runtime walks the heap to emit them,
 *   which lengthens every pause.
 * - gc-requests: gc-collect plus the request sources' providers (added by the recorder from
 *   requests/recording.ts, as `record --requests` does): which requests the GC delayed (issue 42).
 * gc-collect and gc-survival ask for the GC rundown keyword only (GCSettingsRundown: hard limit, LOH
 * threshold…) where the runtime supports a custom rundown keyword (.NET 9+), and no stacks.
 * gc-verbose also answers "who caused it" (issue 14): stack walks on, the Loader and Jit keywords
 * (MethodLoadVerbose as methods are jitted, so live stacks resolve as they arrive) and the
 * runtime's default rundown at stop (every method's code range, ready-to-run framework code
 * included, plus GCSettingsRundown) — dotnet-trace's own default.
 */
import type { ProviderConfig, SessionRequest } from './commands.js';

export const RUNTIME_PROVIDER = 'Microsoft-Windows-DotNETRuntime';
export const PRIVATE_PROVIDER = 'Microsoft-Windows-DotNETRuntimePrivate';

export const KEYWORD_GC = 0x1n;
export const KEYWORD_GC_HANDLE = 0x2n;
export const KEYWORD_EXCEPTION = 0x8000n;
export const KEYWORD_GC_SURVIVAL_AND_MOVEMENT = 0x400000n;
export const KEYWORD_LOADER = 0x8n;
export const KEYWORD_JIT = 0x10n;

export type ProfileName = 'gc-collect' | 'gc-verbose' | 'gc-survival' | 'gc-requests';
export const PROFILE_NAMES: readonly ProfileName[] = ['gc-collect', 'gc-verbose', 'gc-survival', 'gc-requests'];

export interface Profile {
  name: ProfileName;
  description: string;
  providers: ProviderConfig[];
}

export const PROFILES: Record<ProfileName, Profile> = {
  'gc-collect': {
    name: 'gc-collect',
    description: 'every GC with pauses, sizes and per-heap history; lowest overhead (the default)',
    providers: [
      { name: RUNTIME_PROVIDER, keywords: KEYWORD_GC, level: 4 },
      { name: PRIVATE_PROVIDER, keywords: KEYWORD_GC, level: 4 },
    ],
  },
  'gc-verbose': {
    name: 'gc-verbose',
    description: 'adds allocation sampling by type with call stacks, who triggered each GC, pinning and finalization events; higher overhead',
    providers: [
      { name: RUNTIME_PROVIDER, keywords: KEYWORD_GC | KEYWORD_GC_HANDLE | KEYWORD_EXCEPTION | KEYWORD_LOADER | KEYWORD_JIT, level: 5 },
      // Informational only: the BGC phase and LOH allocation wait events (loh-alloc-wait), a few
      // per background GC — Verbose would add a PinPlugAtGCTime event per pinned plug.
      { name: PRIVATE_PROVIDER, keywords: KEYWORD_GC, level: 4 },
    ],
  },
  'gc-requests': {
    name: 'gc-requests',
    description:
      'gc-collect plus request events (ASP.NET Core Kestrel requests, HttpClient calls): which requests the GC delayed; a few hundred bytes per request',
    // The request providers are added by the recorder (requests/recording.ts: DEFAULT_REQUEST_SOURCES),
    // as for `record --requests`: this folder does not know request sources.
    providers: [
      { name: RUNTIME_PROVIDER, keywords: KEYWORD_GC, level: 4 },
      { name: PRIVATE_PROVIDER, keywords: KEYWORD_GC, level: 4 },
    ],
  },
  'gc-survival': {
    name: 'gc-survival',
    description: 'adds the bytes that survived or moved in every GC (large events; the runtime walks the heap for them, so pauses get longer)',
    providers: [
      { name: RUNTIME_PROVIDER, keywords: KEYWORD_GC | KEYWORD_GC_SURVIVAL_AND_MOVEMENT, level: 4 },
      { name: PRIVATE_PROVIDER, keywords: KEYWORD_GC, level: 4 },
    ],
  },
};

/** GC rundown only: the GCSettingsRundown event at the end of the session (.NET 9+ CollectTracing4). */
export const GC_RUNDOWN_KEYWORD = 0x1n;

/**
 * The runtime's default rundown keywords (dotnet-trace's DefaultRundownKeyword, docs/formats.md
 * §1.5): GC 0x1, Loader 0x8, Jit 0x10, NGen 0x20 (ready-to-run methods), 0x100, JittedMethodILToNativeMap
 * 0x20000, ThreadTransfer 0x80000000. requestRundown=true on older runtimes means the same.
 */
export const DEFAULT_RUNDOWN_KEYWORD = 0x80020139n;

export function sessionRequest(profile: ProfileName, circularBufferMB = 256): SessionRequest {
  const stacks = profile === 'gc-verbose';
  return {
    providers: PROFILES[profile].providers,
    circularBufferMB,
    rundownKeyword: stacks ? DEFAULT_RUNDOWN_KEYWORD : GC_RUNDOWN_KEYWORD,
    requestStackwalk: stacks,
  };
}

/**
 * The heap snapshot's sessions (heap-snapshots.md §1), as dotnet-gcdump opens them. First a
 * session that flushes the runtime's "types already logged" memory (it forgets them when the Type
 * keyword's state changes; without it a second snapshot has no type names): SampleProfiler only.
 * Then the dump: GC | Type | GCHeapDump | GCHeapCollect | GCHeapAndTypeNames (0x1980001) at
 * Verbose, which induces a blocking gen2 GC and writes the heap walk inside it; the default
 * rundown supplies module paths (ModuleDCStop); no stacks (they would only make events bigger).
 */
export const KEYWORD_GC_HEAP_SNAPSHOT = 0x1980001n;
export const SAMPLE_PROFILER_PROVIDER = 'Microsoft-DotNETCore-SampleProfiler';

export function typeFlushRequest(): SessionRequest {
  return { providers: [{ name: SAMPLE_PROFILER_PROVIDER, keywords: 0n, level: 4 }], circularBufferMB: 16, rundownKeyword: 0n, requestStackwalk: false };
}

export function heapSnapshotRequest(bufferMB: number): SessionRequest {
  return {
    providers: [{ name: RUNTIME_PROVIDER, keywords: KEYWORD_GC_HEAP_SNAPSHOT, level: 5 }],
    circularBufferMB: bufferMB,
    rundownKeyword: DEFAULT_RUNDOWN_KEYWORD,
    requestStackwalk: false,
    // Every event of the walk must arrive for the graph to be whole: non-lossy on .NET 11+
    // (heap-snapshots.md §1); older runtimes get the lossy buffer, and a walk with lost events is refused.
    buffering: 'block',
  };
}

/**
 * The runtime's EventCounters (RuntimeEventSource "System.Runtime"), once a second: the generation
 * sizes after the last GC (gen-0/1/2-size, loh-size, poh-size) say how big the heap was then,
 * without pausing anything.
 */
export function runtimeCountersRequest(intervalSec = '1'): SessionRequest {
  return {
    providers: [{ name: 'System.Runtime', keywords: 0xffffffffn, level: 4, arguments: `EventCounterIntervalSec=${intervalSec}` }],
    circularBufferMB: 16,
    rundownKeyword: 0n,
    requestStackwalk: false,
  };
}
