/**
 * Builds and runs the C# GC workload (test/workloads/GcWorkload) and records fresh .nettrace files
 * with the runtime's own EventPipe file output (DOTNET_EnableEventPipe), no tool involved.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
export const WORKLOAD_DIR = fileURLToPath(new URL('./GcWorkload/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const OUTPUT_DIR = join(ROOT, 'test-output');
const BUILD_DIR = join(OUTPUT_DIR, 'workload-bin');
export const WORKLOAD_DLL = join(BUILD_DIR, 'GcWorkload.dll');

export type GcMode = 'workstation' | 'concurrent' | 'server' | 'datas';

/** Runtime settings for each GC mode (the runtime's documented DOTNET_ variables). */
export const MODE_ENV: Record<GcMode, Record<string, string>> = {
  workstation: { DOTNET_gcServer: '0', DOTNET_gcConcurrent: '0' },
  concurrent: { DOTNET_gcServer: '0', DOTNET_gcConcurrent: '1' },
  server: { DOTNET_gcServer: '1', DOTNET_gcConcurrent: '1', DOTNET_GCHeapCount: '2', DOTNET_GCDynamicAdaptationMode: '0' },
  datas: { DOTNET_gcServer: '1', DOTNET_gcConcurrent: '1', DOTNET_GCDynamicAdaptationMode: '1' },
};

/** EventPipe provider configs (DOTNET_EventPipeConfig syntax: Provider:Keywords:Level). */
export const EVENTPIPE_CONFIGS = {
  // GC keyword at Verbose on the runtime and private providers: what dotnet-trace's gc-verbose asks for.
  'gc-verbose': 'Microsoft-Windows-DotNETRuntime:0x1:5,Microsoft-Windows-DotNETRuntimePrivate:0x1:5',
  // GC keyword at Informational: gc-collect (no AllocationTick, no per-object events).
  'gc-collect': 'Microsoft-Windows-DotNETRuntime:0x1:4,Microsoft-Windows-DotNETRuntimePrivate:0x1:4',
} as const;

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
  try {
    await exec('dotnet', ['--version']);
    return undefined;
  } catch (e) {
    return `the .NET SDK (dotnet) is not installed or not on PATH: ${(e as Error).message}`;
  }
}

function newestMtime(dir: string): number {
  return Math.max(...readdirSync(dir).filter((f) => /\.(cs|csproj)$/.test(f)).map((f) => statSync(join(dir, f)).mtimeMs));
}

/** Builds the workload once (skipped when the build is newer than the sources). */
export async function buildWorkload(): Promise<string> {
  if (existsSync(WORKLOAD_DLL) && statSync(WORKLOAD_DLL).mtimeMs > newestMtime(WORKLOAD_DIR)) return WORKLOAD_DLL;
  mkdirSync(BUILD_DIR, { recursive: true });
  await exec('dotnet', ['build', WORKLOAD_DIR, '-c', 'Release', '-o', BUILD_DIR, '--nologo', '-v', 'q'], {
    env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return WORKLOAD_DLL;
}

export function parseWorkloadOutput(stdout: string): { counts: WorkloadCounts | undefined; phases: WorkloadCounts[]; pid: number | undefined; gcSeenAt: Map<number, number> } {
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
  scenario?: string;
  iterations?: number;
  seconds?: number;
  extraEnv?: Record<string, string>;
  extraArgs?: string[];
}

export function workloadArgs(o: RunOptions): string[] {
  const args = [WORKLOAD_DLL, '--scenario', o.scenario ?? 'mixed'];
  if (o.seconds !== undefined) args.push('--seconds', String(o.seconds));
  else args.push('--iterations', String(o.iterations ?? 1));
  return [...args, ...(o.extraArgs ?? [])];
}

/** Runs the workload to completion and returns its own collection counts. */
export async function runWorkload(o: RunOptions): Promise<WorkloadRun> {
  await buildWorkload();
  const child = spawn('dotnet', workloadArgs(o), {
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
