/**
 * Background analyses yield the CPU to what the user waits on: the findings/comparison worker and
 * the import worker lower their own thread's priority (nice 10), and only their own. On a 2-core
 * machine a diagnosis beside the page slowed the page; lowering the whole process would slow the
 * service thread that answers the page instead. Linux only (per-thread nice).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BACKGROUND_NICE, currentThreadId } from '../../src-main/service/thread-priority.js';
import { skipOrFail } from '../helpers/environment.js';

const WORKER = join(process.cwd(), 'dist', 'analysis-worker.mjs');

/** nice of each thread of this process, by thread id (/proc/self/task/<tid>/stat, field 19). */
function niceByThread(): Map<number, number> {
  const m = new Map<number, number>();
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      m.set(Number(t), Number(after[16]));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return m;
}

const lowered = (): number[] => [...niceByThread()].filter(([, n]) => n === BACKGROUND_NICE).map(([t]) => t);

// Per-thread nice is Linux's; a test process already started at nice 10 or more has nothing to
// lower. Either skips with a printed reason, and fails under CI=true (CI must not pass by skipping).
const mainNice = process.platform === 'linux' ? niceByThread().get(process.pid)! : 0;
const cannotRun =
  process.platform !== 'linux'
    ? `per-thread priority is Linux only (this is ${process.platform})`
    : mainNice >= BACKGROUND_NICE
      ? `the test process already runs at nice ${mainNice}`
      : undefined;
let skip = false;
beforeAll(() => {
  skip = skipOrFail(cannotRun, 'background thread priority');
});
beforeEach((ctx) => {
  if (skip) ctx.skip();
});

describe('background threads (Linux)', () => {
  it('the findings worker runs below normal priority while the thread serving the page keeps its own', async () => {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run node scripts/build.mjs (npm test builds it first)`);
    expect(currentThreadId()).toBe(process.pid);
    const before = lowered();
    const w = new Worker(WORKER);
    try {
      // An answer proves the worker's module ran (its priority is set as it loads).
      const reply = await new Promise<{ ok: boolean; message?: string }>((resolve) => {
        w.once('message', resolve);
        w.postMessage({ kind: 'diagnose', id: 1, key: 'none', drop: [], facts: {}, overrides: {} });
      });
      expect(reply).toMatchObject({ ok: false, message: 'columns none are not held' });
      const now = lowered().filter((t) => !before.includes(t));
      expect(now).toHaveLength(1);
      expect(niceByThread().get(process.pid)).toBe(mainNice);
    } finally {
      await w.terminate();
    }
    // terminate() resolves once the thread is joined, but Linux clears a thread's id (what
    // pthread_join waits on) before it removes /proc/self/task/<tid>: on a loaded machine the
    // exiting thread stays listed, at nice 10, for a moment. Wait for it to go (2 s at most).
    const deadline = Date.now() + 2000;
    while (lowered().some((t) => !before.includes(t)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // A thread still here names itself and its state (a thread the worker started would inherit nice 10).
    const describeThread = (t: number): string => {
      try {
        const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
        return `${t} ${readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim()} state ${stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)}`;
      } catch {
        return `${t} (gone)`;
      }
    };
    expect(
      lowered()
        .filter((t) => !before.includes(t))
        .map(describeThread),
    ).toEqual([]);
  });
});
