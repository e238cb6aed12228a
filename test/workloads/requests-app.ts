/**
 * The ASP.NET Core request app (test/workloads/RequestsApp, issue 42): published once per source
 * hash into its git-ignored bin/, started on a free loopback port, and driven by a load generator
 * that counts the requests it sent and their latency as the client saw it.
 *
 * Endpoints: /fast, /alloc?kb=N (allocates, keeps every 16th array for a while: gen0/1/2 GCs
 * with a pause-heavy configuration), /sleep?ms=N (slow for a reason that is not the GC), /gen2.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
export const APP_DIR = fileURLToPath(new URL('./RequestsApp/', import.meta.url));

function sourceHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(APP_DIR)
    .filter((x) => /\.(cs|csproj)$/.test(x))
    .sort())
    h.update(f)
      .update('\0')
      .update(readFileSync(join(APP_DIR, f)))
      .update('\0');
  return h.digest('hex').slice(0, 16);
}

const CACHE_ROOT = join(APP_DIR, 'bin', 'gcscope-publish');
const CACHE_DIR = join(CACHE_ROOT, sourceHash());
export const APP_DLL = join(CACHE_DIR, 'RequestsApp.dll');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Publishes the app once per source hash (a lock directory keeps parallel test files apart). */
export async function buildRequestsApp(): Promise<string> {
  const complete = join(CACHE_DIR, '.complete');
  if (existsSync(complete)) return APP_DLL;
  mkdirSync(CACHE_ROOT, { recursive: true });
  const lock = join(CACHE_ROOT, '.lock');
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(complete)) return APP_DLL;
      if (i > 2400) rmSync(lock, { recursive: true, force: true }); // 10 minutes: a dead publisher's lock
      await sleep(250);
    }
  }
  try {
    if (existsSync(complete)) return APP_DLL;
    rmSync(CACHE_DIR, { recursive: true, force: true });
    try {
      await exec('dotnet', ['publish', join(APP_DIR, 'RequestsApp.csproj'), '-c', 'Release', `-p:GcScopePublishRoot=${CACHE_DIR}`, '-nologo', '-v:q'], {
        env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' },
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (e) {
      const x = e as Error & { stdout?: string; stderr?: string };
      throw new Error(`publishing the request app failed: ${x.message}\n${x.stdout ?? ''}${x.stderr ?? ''}`);
    }
    if (!existsSync(APP_DLL)) throw new Error(`publishing the request app wrote no ${APP_DLL}`);
    writeFileSync(complete, new Date().toISOString() + '\n');
    for (const old of readdirSync(CACHE_ROOT))
      if (old !== '.lock' && join(CACHE_ROOT, old) !== CACHE_DIR) rmSync(join(CACHE_ROOT, old), { recursive: true, force: true });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return APP_DLL;
}

/** Workstation, non-concurrent GC with a small fixed gen0 budget: every GC blocks, and often. */
export const PAUSE_HEAVY_GC = { DOTNET_gcServer: '0', DOTNET_gcConcurrent: '0', DOTNET_GCgen0size: '0x1000000' };

export interface RunningApp {
  child: ChildProcess;
  pid: number;
  url: string;
}

/** Starts the app on a free loopback port and waits until Kestrel listens. */
export async function startRequestsApp(env: Record<string, string>, children: ChildProcess[]): Promise<RunningApp> {
  const child = spawn('dotnet', [APP_DLL, 'http://127.0.0.1:0'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the request app did not start listening in 30 s: ${out}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (http:\/\/\S+)/.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`the request app exited (${code}) before listening: ${out}`)));
  });
  return { child, pid: child.pid!, url };
}

export interface LoadResult {
  /** Requests answered 200. */
  sent: number;
  failed: number;
  /** Latency as the client saw it, ms, in completion order. */
  latencies: number[];
  wallMSec: number;
}

/**
 * Sends `total` requests over `concurrency` keep-alive connections, each taking the next path of
 * `paths` in turn, and waits for every answer.
 */
export async function sendLoad(url: string, paths: readonly string[], total: number, concurrency: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let next = 0;
  let sent = 0;
  let failed = 0;
  const one = (path: string): Promise<void> =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = request(url + path, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - t0);
          if (res.statusCode === 200) sent++;
          else failed++;
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) await one(paths[i % paths.length]!);
    }),
  );
  agent.destroy();
  return { sent, failed, latencies, wallMSec: performance.now() - started };
}
