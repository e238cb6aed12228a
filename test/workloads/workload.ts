/**
 * Builds and runs the C# GC workload (test/workloads/GcWorkload) on each runtime it targets and
 * records fresh .nettrace files with the runtime's own EventPipe file output (DOTNET_EnableEventPipe),
 * no tool involved.
 *
 * The workload multi-targets net8.0, net9.0 and net10.0. net10.0 is published framework-dependent
 * and runs on the installed shared runtime (`dotnet GcWorkload.dll`); net8.0 and net9.0 are
 * published self-contained from the runtime packs NuGet serves, so no other runtime install is
 * needed. One MSBuild run (the project's PublishAllRuntimes target) publishes all three into a cache directory named after a hash of the
 * workload's sources (under the git-ignored bin/), so a fresh clone publishes once and every later
 * run — and every test file — reuses it. A lock directory keeps parallel test files from
 * publishing at the same time.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
export const WORKLOAD_DIR = fileURLToPath(new URL('./GcWorkload/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const OUTPUT_DIR = join(ROOT, 'test-output');

/** The runtimes the workload targets, oldest first (target framework monikers). */
export const RUNTIMES = ['net8.0', 'net9.0', 'net10.0'] as const;
export type Runtime = (typeof RUNTIMES)[number];
/** The runtime tests use when they do not say: the installed shared runtime. */
export const DEFAULT_RUNTIME: Runtime = 'net10.0';

/** A hash of everything that affects the published workload: its sources and project file. */
function sourceHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(WORKLOAD_DIR)
    .filter((x) => /\.(cs|csproj)$/.test(x))
    .sort()) {
    h.update(f)
      .update('\0')
      .update(readFileSync(join(WORKLOAD_DIR, f)))
      .update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

const CACHE_ROOT = join(WORKLOAD_DIR, 'bin', 'gcscope-publish');
const CACHE_DIR = join(CACHE_ROOT, sourceHash());
const COMPLETE = join(CACHE_DIR, '.complete');

/** Where one runtime's published workload lives (valid once buildWorkload() has run). */
export function publishDir(runtime: Runtime): string {
  return join(CACHE_DIR, runtime);
}

/** The .NET 10 (shared runtime) build, run as `dotnet WORKLOAD_DLL …`. */
export const WORKLOAD_DLL = join(publishDir('net10.0'), 'GcWorkload.dll');

/** How to start the workload on a runtime: the command and the arguments before the workload's own. */
export function workloadCommand(runtime: Runtime = DEFAULT_RUNTIME): { command: string; args: string[] } {
  if (runtime === 'net10.0') return { command: 'dotnet', args: [WORKLOAD_DLL] };
  return { command: join(publishDir(runtime), process.platform === 'win32' ? 'GcWorkload.exe' : 'GcWorkload'), args: [] };
}

/** The runtime's major version (8, 9, 10). */
export function runtimeMajor(runtime: Runtime): number {
  return Number(/^net(\d+)/.exec(runtime)![1]);
}

export type GcMode = 'workstation' | 'concurrent' | 'server' | 'datas';

/**
 * Workstation GC's gen0 budget, fixed: the runtime sizes it from the CPU's cache, and on a machine
 * whose cache it cannot read (a VM without /sys/devices/system/cpu/cpu0/cache) it falls back to a
 * budget so small that the churn collects thousands of times a second instead of a hundred, every
 * induced GC drowns among them, and a flight-recorder ring sized for "hundreds a second" covers a
 * few ms. 32 MB is what a typical x64 desktop's L3 gives (the rates the tests and benches were
 * written against: churn at --pause-ms 18, ~100 GCs/s). Server GC and DATAS size per heap and are
 * left to the runtime.
 */
export const GEN0_BUDGET_ENV = { DOTNET_GCgen0size: '0x2000000' };

/** Runtime settings for each GC mode (the runtime's documented DOTNET_ variables). */
export const MODE_ENV: Record<GcMode, Record<string, string>> = {
  workstation: { DOTNET_gcServer: '0', DOTNET_gcConcurrent: '0', ...GEN0_BUDGET_ENV },
  concurrent: { DOTNET_gcServer: '0', DOTNET_gcConcurrent: '1', ...GEN0_BUDGET_ENV },
  server: { DOTNET_gcServer: '1', DOTNET_gcConcurrent: '1', DOTNET_GCHeapCount: '2', DOTNET_GCDynamicAdaptationMode: '0' },
  datas: { DOTNET_gcServer: '1', DOTNET_gcConcurrent: '1', DOTNET_GCDynamicAdaptationMode: '1' },
};

/** EventPipe provider configs (DOTNET_EventPipeConfig syntax: Provider:Keywords:Level). */
export const EVENTPIPE_CONFIGS = {
  // GC keyword at Verbose on the runtime and private providers: what dotnet-trace's gc-verbose asks for.
  'gc-verbose': 'Microsoft-Windows-DotNETRuntime:0x1:5,Microsoft-Windows-DotNETRuntimePrivate:0x1:5',
  // GC keyword at Informational: gc-collect (no AllocationTick, no per-object events).
  'gc-collect': 'Microsoft-Windows-DotNETRuntime:0x1:4,Microsoft-Windows-DotNETRuntimePrivate:0x1:4',
  // gc-verbose plus what call stacks need (issue 14): Loader 0x8 and Jit 0x10 for the module and
  // method load events (names and code ranges of methods as they are jitted), Stack 0x40000000.
  // The runtime's file session walks stacks for every event; the rundown provider with the
  // default rundown keywords (0x80020139) makes it write every method's code range at the end,
  // the ready-to-run (precompiled) framework methods included (without it, a .NET 10 file
  // session ended at exit writes no MethodDCStopVerbose events).
  'gc-stacks': 'Microsoft-Windows-DotNETRuntime:0x40000019:5,Microsoft-Windows-DotNETRuntimePrivate:0x1:5,Microsoft-Windows-DotNETRuntimeRundown:0x80020139:5',
} as const;

/**
 * The problem modes (issue 13): one workload scenario per problem GCScope's diagnosis finds, named
 * after the rule that should find it, plus a healthy one that should raise no warning.
 */
export const PROBLEM_MODES = [
  'healthy',
  'induced-gcs',
  'loh-triggered-gen2',
  'growing-live-set',
  'pinning-fragmentation',
  'midlife-crisis',
  'long-suspension',
  'loh-alloc-wait',
  'leak-fast',
  'startup-fill',
] as const;
export type ProblemMode = (typeof PROBLEM_MODES)[number];

/**
 * The finding each mode must raise at warning level (issue 39), or null when it must raise no
 * warning at all: most modes are named after their rule; leak-fast is a leak too (a fast one, for
 * a short recording), and startup-fill is a live set that climbs at start and levels off — warm-up,
 * not a problem.
 */
export const PROBLEM_FINDING: Record<ProblemMode, string | null> = {
  healthy: null,
  'induced-gcs': 'induced-gcs',
  'loh-triggered-gen2': 'loh-triggered-gen2',
  'growing-live-set': 'growing-live-set',
  'pinning-fragmentation': 'pinning-fragmentation',
  'midlife-crisis': 'midlife-crisis',
  'long-suspension': 'long-suspension',
  'loh-alloc-wait': 'loh-alloc-wait',
  'leak-fast': 'growing-live-set',
  'startup-fill': null,
};

/** The findings that blame a cause: any of them at warning level on a mode not about it is a wrong diagnosis. */
export const CAUSE_FINDINGS: readonly string[] = [...new Set(Object.values(PROBLEM_FINDING).filter((x): x is string => x !== null)), 'random-long-pause'];

/**
 * Other problems' warnings a mode cannot help raising, because its problem comes with them. LOH
 * allocations wait only for background GCs, and a workload whose LOH allocation outruns the BGCs
 * also exhausts the LOH budget between them, so those BGCs are triggered by it (AllocLarge): the
 * loh-alloc-wait mode is LOH churn made worse, and loh-triggered-gen2 is right to fire on it too.
 * (A BGC triggered by anything else — induced, or gen2 promotion dying or staying there — would be
 * another mode's problem instead.) Any other problem's warning is still a failure.
 */
export const PROBLEM_COMPANIONS: Partial<Record<ProblemMode, readonly ProblemMode[]>> = {
  'loh-alloc-wait': ['loh-triggered-gen2'],
};

/**
 * How long each problem mode is recorded: a few seconds, except where the rule needs more GCs to
 * judge — midlife-crisis needs several background GCs (one every ~2.5 s), growing-live-set five
 * gen2 GCs after the warm-up (which the growth itself stretches to about a sixth of the run).
 */
export const PROBLEM_SECONDS: Record<ProblemMode, number> = {
  healthy: 6,
  'induced-gcs': 6,
  'loh-triggered-gen2': 7,
  'growing-live-set': 30,
  'pinning-fragmentation': 6,
  'midlife-crisis': 10,
  'long-suspension': 6,
  'loh-alloc-wait': 8,
  'leak-fast': 8,
  'startup-fill': 10,
};

/** Problem modes run in the runtime's default GC mode: workstation with background GC. */
export const PROBLEM_GC_MODE: GcMode = 'concurrent';

/**
 * A command prefix that runs the workload at the highest CPU priority, or [] when that is not
 * possible here (it needs root or CAP_SYS_NICE). On a busy machine the scheduler takes the CPU
 * away from a GC thread now and then, and such a GC looks like a random long pause (the
 * random-long-pause rule's real cause): recording the problem traces at high priority keeps most
 * of the machine's other work out of them, so each shows the problem its mode causes. On Linux
 * with autogroup scheduling (sched_autogroup_enabled), nice only ranks processes within one
 * session, so the workload gets a session of its own (setsid) whose autogroup is set to nice -20
 * too. (Real-time scheduling, `chrt -f`, was tried and rejected: the runtime's threads then
 * stalled for seconds.)
 */
export async function highPriorityPrefix(): Promise<string[]> {
  if (process.platform === 'win32') return [];
  try {
    const { stdout } = await exec('nice', ['-n', '-20', 'nice']);
    if (stdout.trim() !== '-20') return [];
  } catch {
    return [];
  }
  if (process.platform !== 'linux') return ['nice', '-n', '-20'];
  return ['setsid', 'sh', '-c', 'echo -20 > /proc/self/autogroup 2>/dev/null; exec nice -n -20 "$@"', 'sh'];
}

/**
 * Other work that keeps every core busy while a recording runs (issue 39: the problem workloads are
 * recorded on an idle machine and on a loaded one): one busy-looping Node process per core, at
 * normal priority. Returns the function that stops them (by their own pids).
 */
export function startCpuLoad(processes = availableParallelism()): () => void {
  const burners: ChildProcess[] = [];
  for (let i = 0; i < processes; i++) burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return () => {
    for (const b of burners) b.kill('SIGKILL');
  };
}

export interface WorkloadCounts {
  gen0: number;
  gen1: number;
  gen2: number;
  exactGen0: number;
  exactGen1: number;
  exactGen2: number;
  mode?: string;
  name?: string;
  utcMs: number;
}

export interface WorkloadRun {
  stdout: string;
  counts: WorkloadCounts;
  phases: WorkloadCounts[];
  exitCode: number | null;
}

/** Why dotnet cannot be used here, or undefined when it can. */
export async function dotnetMissingReason(): Promise<string | undefined> {
  // `npm run test:unit` (vitest.config.ts) starts no .NET process: a test that can also check against one checks without it.
  if (process.env.GCSCOPE_TEST_NO_DOTNET === '1') return 'GCSCOPE_TEST_NO_DOTNET=1 (npm run test:unit)';
  try {
    await exec('dotnet', ['--version']);
    return undefined;
  } catch (e) {
    return `the .NET SDK (dotnet) is not installed or not on PATH: ${(e as Error).message}`;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Holds a lock directory while fn runs; a lock left by a dead process is taken over. */
async function withPublishLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = join(CACHE_ROOT, '.lock');
  mkdirSync(CACHE_ROOT, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // The owner has created the directory but not yet written its pid.
      }
      if (Number.isInteger(owner) && !isAlive(owner)) rmSync(lock, { recursive: true, force: true });
      else await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Publishes the workload for every runtime once per source hash (one MSBuild run for all target
 * frameworks, at low CPU priority) and returns the .NET 10 build's path. Older caches are
 * removed.
 */
export async function buildWorkload(): Promise<string> {
  if (existsSync(COMPLETE)) return WORKLOAD_DLL;
  await withPublishLock(async () => {
    if (existsSync(COMPLETE)) return;
    rmSync(CACHE_DIR, { recursive: true, force: true });
    const nice = process.platform === 'win32' ? [] : ['nice', '-n', '10'];
    const cmd = [
      ...nice,
      'dotnet',
      'msbuild',
      join(WORKLOAD_DIR, 'GcWorkload.csproj'),
      '-restore',
      '-t:PublishAllRuntimes',
      '-p:Configuration=Release',
      `-p:GcScopePublishRoot=${CACHE_DIR}`,
      '-nologo',
      '-v:q',
    ];
    try {
      await exec(cmd[0]!, cmd.slice(1), {
        env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' },
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (e) {
      const x = e as Error & { stdout?: string; stderr?: string };
      throw new Error(`publishing the workload (${cmd.join(' ')}) failed: ${x.message}\n${x.stdout ?? ''}${x.stderr ?? ''}`);
    }
    for (const r of RUNTIMES) {
      const { command } = workloadCommand(r);
      if (!existsSync(r === 'net10.0' ? WORKLOAD_DLL : command)) throw new Error(`publishing the workload wrote no ${r} build in ${publishDir(r)}`);
    }
    writeFileSync(COMPLETE, new Date().toISOString() + '\n');
    for (const old of readdirSync(CACHE_ROOT)) {
      if (old !== '.lock' && join(CACHE_ROOT, old) !== CACHE_DIR) rmSync(join(CACHE_ROOT, old), { recursive: true, force: true });
    }
  });
  return WORKLOAD_DLL;
}

export function parseWorkloadOutput(stdout: string): {
  counts: WorkloadCounts | undefined;
  phases: WorkloadCounts[];
  pid: number | undefined;
  gcSeenAt: Map<number, number>;
} {
  let counts: WorkloadCounts | undefined;
  let pid: number | undefined;
  const phases: WorkloadCounts[] = [];
  // --gc-log: GC number → wall-clock ms at which the workload saw it finish.
  const gcSeenAt = new Map<number, number>();
  for (const line of stdout.split('\n')) {
    if (line.startsWith('GCSCOPE-COUNTS ')) counts = JSON.parse(line.slice(15)) as WorkloadCounts;
    else if (line.startsWith('GCSCOPE-PHASE ')) phases.push(JSON.parse(line.slice(14)) as WorkloadCounts);
    else if (line.startsWith('GCSCOPE-READY ')) pid = (JSON.parse(line.slice(14)) as { pid: number }).pid;
    else if (line.startsWith('GCSCOPE-GC ')) {
      const j = JSON.parse(line.slice(11)) as { count: number; utcMs: number };
      gcSeenAt.set(j.count, j.utcMs);
    }
  }
  return { counts, phases, pid, gcSeenAt };
}

export interface RunOptions {
  mode: GcMode;
  /** The runtime to run on (default: the installed .NET 10). */
  runtime?: Runtime;
  scenario?: string;
  iterations?: number;
  seconds?: number;
  extraEnv?: Record<string, string>;
  extraArgs?: string[];
  /** Words to run the workload command under (e.g. highPriorityPrefix()). */
  prefix?: string[];
}

/** The workload's own arguments (after workloadCommand()'s). */
export function workloadArgs(o: Omit<RunOptions, 'mode'>): string[] {
  const args = ['--scenario', o.scenario ?? 'mixed'];
  if (o.seconds !== undefined) args.push('--seconds', String(o.seconds));
  else args.push('--iterations', String(o.iterations ?? 1));
  return [...args, ...(o.extraArgs ?? [])];
}

/** Runs the workload to completion and returns its own collection counts. */
export async function runWorkload(o: RunOptions): Promise<WorkloadRun> {
  await buildWorkload();
  const { command, args } = workloadCommand(o.runtime);
  const argv = [...(o.prefix ?? []), command, ...args, ...workloadArgs(o)];
  const child = spawn(argv[0]!, argv.slice(1), {
    env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', ...MODE_ENV[o.mode], ...o.extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const { counts, phases } = parseWorkloadOutput(stdout);
  if (counts === undefined) throw new Error(`workload printed no counts (exit ${exitCode}): ${stderr}`);
  return { stdout, counts, phases, exitCode };
}

/** Records a .nettrace of a whole workload run through the runtime's own EventPipe file output. */
export async function recordWorkload(o: RunOptions & { out: string; profile?: keyof typeof EVENTPIPE_CONFIGS }): Promise<WorkloadRun> {
  return runWorkload({
    ...o,
    extraEnv: {
      DOTNET_EnableEventPipe: '1',
      DOTNET_EventPipeOutputPath: o.out,
      DOTNET_EventPipeConfig: EVENTPIPE_CONFIGS[o.profile ?? 'gc-verbose'],
      ...o.extraEnv,
    },
  });
}

/** A workload process a test started and talks to (stdin for --wait-for-input). */
export interface RunningWorkload {
  child: ChildProcess;
  /** Resolves with the GCSCOPE-READY line: pid, runtime version and the counts at start. */
  ready: Promise<WorkloadCounts & { pid: number; runtime: string }>;
  exited: Promise<number | null>;
  output: () => string;
}

/**
 * Starts the workload on a runtime in a GC mode without waiting for it (attach tests). The caller
 * kills it when done; `children` collects every started process for an afterAll sweep.
 */
export function startWorkload(
  o: { runtime?: Runtime; mode: GcMode; args: string[]; env?: Record<string, string> },
  children?: ChildProcess[],
): RunningWorkload {
  const { command, args } = workloadCommand(o.runtime);
  const child = spawn(command, [...args, ...o.args], {
    env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', ...MODE_ENV[o.mode], ...o.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children?.push(child);
  let out = '';
  let err = '';
  let resolveReady!: (v: WorkloadCounts & { pid: number; runtime: string }) => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<WorkloadCounts & { pid: number; runtime: string }>((res, rej) => ((resolveReady = res), (rejectReady = rej)));
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /^GCSCOPE-READY (.*)$/m.exec(out);
    if (m !== null) resolveReady(JSON.parse(m[1]!) as WorkloadCounts & { pid: number; runtime: string });
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  void exited.then((c) => rejectReady(new Error(`the workload exited (code ${c}) before it was ready: ${err}`)));
  child.once('error', (e) => rejectReady(new Error(`cannot start the workload (${command}): ${e.message}`)));
  return { child, ready, exited, output: () => out };
}
