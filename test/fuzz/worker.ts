/**
 * A fuzz worker: a long-lived child process (forked by pool.ts) that runs CLI commands in-process
 * with main(), as `gcscope …` would, and reports exit code, stderr and time. Starting node per
 * input would cost more than most inputs take; the parent watches this process's memory and
 * time and kills it when an input hangs or bloats.
 */
import { runMainCaptured } from './cli-fuzz.js';

export interface WorkRequest {
  id: number;
  argv: string[];
}

export interface WorkReply {
  id: number;
  code: number;
  stderr: string;
  /** main() threw instead of returning an exit code: the error's stack. */
  threw?: string;
  ms: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (m: WorkRequest) => {
  void (async () => {
    const t = performance.now();
    const r = await runMainCaptured(m.argv);
    const ms = performance.now() - t;
    const threw = r.threw === undefined ? undefined : ((r.threw as Error)?.stack ?? String(r.threw));
    // Garbage from this input is collected before the next one, so the parent's peak-RSS
    // figure for an input is that input's.
    gc?.();
    const reply: WorkReply = { id: m.id, code: r.code, stderr: r.stderr.slice(0, 8192), threw, ms };
    process.send!(reply);
  })();
});
process.send!({ ready: true });
