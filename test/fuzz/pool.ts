/**
 * A pool of long-lived fuzz workers (worker.ts, forked with tsx) with the limits of the CLI's
 * contract enforced from outside, where a hang or a runaway allocation cannot stop the check:
 * - time: an input still running after `hangMs` is a hang — the worker is killed and replaced;
 * - memory: the worker's peak RSS while it runs one input. Before each input the parent resets
 *   the kernel's high-water mark (writing 5 to /proc/PID/clear_refs) and reads VmHWM after it;
 *   VmRSS is also sampled, and a worker past `killRssBytes` is killed at once;
 * - workers are replaced every `recycleEvery` inputs, so one input's leftovers do not count
 *   against later ones.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WorkReply, WorkRequest } from './worker.js';

export interface PoolOptions {
  jobs: number;
  hangMs: number;
  /** Kill the worker past this RSS (the failure is recorded either way). */
  killRssBytes: number;
  recycleEvery: number;
}

export interface RunResult {
  code: number;
  stderr: string;
  threw?: string;
  ms: number;
  /** Peak RSS of the worker during this input, bytes. */
  peakRss: number;
  /** 'hang' (killed after hangMs), 'rss-kill' (killed past killRssBytes), 'crash' (the worker died), or undefined. */
  killed?: 'hang' | 'rss-kill' | 'crash';
}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

function procStatus(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

class Worker {
  child!: ChildProcess;
  ready!: Promise<void>;
  runs = 0;
  private canResetHwm = true;

  constructor() {
    this.start();
  }

  private start(): void {
    this.child = fork(WORKER, [], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, GCSCOPE_DEBUG: '0' },
    });
    // Whatever the worker writes to the real stderr outside main() (a crash) is kept for the report.
    this.child.stderr!.on('data', (d: Buffer) => (this.rawStderr += d.toString()));
    this.runs = 0;
    this.ready = new Promise((resolve) => {
      const onMsg = (m: unknown): void => {
        if ((m as { ready?: boolean }).ready === true) {
          this.child.off('message', onMsg);
          resolve();
        }
      };
      this.child.on('message', onMsg);
    });
  }

  rawStderr = '';

  restart(): void {
    this.child.kill('SIGKILL');
    this.start();
  }

  async run(req: WorkRequest, o: PoolOptions): Promise<RunResult> {
    await this.ready;
    if (this.runs >= o.recycleEvery) {
      this.restart();
      await this.ready;
    }
    this.runs++;
    const pid = this.child.pid!;
    if (this.canResetHwm) {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        this.canResetHwm = false;
      }
    }
    this.rawStderr = '';
    const t0 = performance.now();
    return new Promise<RunResult>((resolve) => {
      let peak = procStatus(pid, 'VmRSS');
      let settled = false;
      const finish = (r: Omit<RunResult, 'peakRss'>): void => {
        if (settled) return;
        settled = true;
        clearInterval(sampler);
        clearTimeout(timer);
        this.child.off('message', onMsg);
        this.child.off('exit', onExit);
        if (this.canResetHwm && r.killed === undefined) peak = Math.max(peak, procStatus(pid, 'VmHWM'));
        if (r.killed !== undefined) this.restart();
        resolve({ ...r, peakRss: peak });
      };
      const sampler = setInterval(() => {
        const rss = procStatus(pid, 'VmRSS');
        peak = Math.max(peak, rss);
        if (rss > o.killRssBytes) finish({ code: -1, stderr: '', ms: performance.now() - t0, killed: 'rss-kill' });
      }, 25);
      const timer = setTimeout(() => finish({ code: -1, stderr: '', ms: performance.now() - t0, killed: 'hang' }), o.hangMs);
      const onMsg = (m: unknown): void => {
        const r = m as WorkReply;
        if (r.id === req.id) finish({ code: r.code, stderr: r.stderr, threw: r.threw, ms: r.ms });
      };
      const onExit = (code: number | null, signal: string | null): void =>
        finish({ code: -1, stderr: this.rawStderr.slice(0, 4096), ms: performance.now() - t0, killed: 'crash', threw: `worker exited (${code ?? signal})` });
      this.child.on('message', onMsg);
      this.child.on('exit', onExit);
      this.child.send(req);
    });
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }
}

export class Pool {
  private readonly workers: Worker[];
  private readonly idle: Worker[];
  private readonly waiting: ((w: Worker) => void)[] = [];
  private nextId = 1;

  constructor(private readonly o: PoolOptions) {
    this.workers = Array.from({ length: o.jobs }, () => new Worker());
    this.idle = [...this.workers];
  }

  async run(argv: string[]): Promise<RunResult> {
    const w = this.idle.pop() ?? (await new Promise<Worker>((resolve) => this.waiting.push(resolve)));
    try {
      return await w.run({ id: this.nextId++, argv }, this.o);
    } finally {
      const next = this.waiting.shift();
      if (next !== undefined) next(w);
      else this.idle.push(w);
    }
  }

  stop(): void {
    for (const w of this.workers) w.stop();
  }
}
