/**
 * One redraw queue for all lanes (and the overview strip). Lanes that changed are redrawn
 * together from the next animation frame (so they move as one), each in its own task (so four
 * lanes never add up to one long task: a canvas's drawing is rasterized at the end of the task
 * that drew it, so drawing all lanes in one frame made one task of all their rasterization —
 * measured with bench:live-ui's LIVE_TRACE at ~115 GCs/s: 23 renderer tasks over 50 ms of CPU
 * in 30 s, longest 68 ms, against none, longest 38 ms, one task per lane), and the next round
 * waits as long as this one took, measured up to the next frame so the browser's paint and
 * compositing of the canvases count too: while a live recording pushes 10 batches a second,
 * charts take at most about half of the main thread and the page stays responsive however slow
 * the machine; on a fast one a lane still redraws every frame.
 */
import { benchMeasures } from '../lib/bench.js';

type Job = () => void;

const pending = new Set<Job>();
let scheduled = false;
let nextAt = 0;
/** Longest pause between rounds (ms), so a very slow round does not freeze the charts. */
const MAX_WAIT = 400;

/**
 * While the lanes follow a live recording: the shortest time from one round's start to the next
 * (0: none). A live batch arrives ten times a second and each used to start a round of every lane:
 * at ~110 GCs/s ~180 ms of the page's main thread a second went to drawing and rasterizing the
 * lanes (bench:live-ui's CPU profile: "(program)" and drawImage), and on a loaded 2-core machine
 * one of those tasks now and then waited past 50 ms for a core. Drawing at most every LIVE_PACE
 * ms cuts that by a third; a GC still reaches the chart within ~160 ms of its batch (p95), well
 * inside the 250 ms budget. Not applied while the user has a range of their own (zooming and
 * panning redraw every frame, as when not recording).
 */
export const LIVE_PACE = 150;
let pace = 0;

/** Sets (or, with 0, lifts) the live pace above. */
export function setRedrawPace(ms: number): void {
  pace = ms;
}

/** Jobs drawn after the lanes in their round (the overview strip): the top lane is the first chart a user looks at. */
const trailing = new WeakSet<Job>();

/** The pause after a slow round, while it lasts (a round is scheduled but waits for it). */
let throttle: ReturnType<typeof setTimeout> | undefined;
/** A prompt request is waiting: the next round does not wait out the pause (also when asked during a round). */
let hurry = false;

/**
 * Queues `job` for the next round. `promptly`: the next round does not wait out the pause a slow
 * round left — for a lane's first data. Opening 100,000 GCs, the lanes' first round (drawn empty
 * while the page was still being built) left a 16 ms pause, and the page's table, built in a
 * task of its own meanwhile, put the first chart ~45 ms later than it could have been.
 */
export function requestRedraw(job: Job, last = false, promptly = false): void {
  pending.add(job);
  if (last) trailing.add(job);
  if (promptly) hurry = true;
  if (scheduled) {
    if (promptly && throttle !== undefined) {
      clearTimeout(throttle);
      throttle = undefined;
      requestAnimationFrame(round);
    }
    return;
  }
  scheduled = true;
  const wait = hurry ? 0 : nextAt - performance.now();
  if (wait > 0)
    throttle = setTimeout(() => {
      throttle = undefined;
      requestAnimationFrame(round);
    }, wait);
  else requestAnimationFrame(round);
}

/** The jobs of the round being drawn that have not run yet (each runs in a task of its own). */
const inRound = new Set<Job>();

/** Values latched by the round being drawn (see latchForRound); cleared when a round starts. */
const latched = new Map<string, unknown>();
let drawing = false;

/**
 * The first value given for `key` in the round being drawn, so every lane of one round shows the
 * same thing although each draws in a task of its own: a live batch handled between two lanes'
 * tasks moved the follow-live window, and the lanes below drew a window 0.1–0.2 s later than
 * the ones above until the next round (a shared cursor ~7 px apart). A change after the first
 * lane drew asks for the next round anyway. Outside a round, `value` itself.
 */
export function latchForRound<T>(key: string, value: T): T {
  if (!drawing) return value;
  if (latched.has(key)) return latched.get(key) as T;
  latched.set(key, value);
  return value;
}

/** Drops a lane's queued redraw (the lane is being destroyed), also from a round already under way. */
export function cancelRedraw(job: Job): void {
  pending.delete(job);
  inRound.delete(job);
}

function round(): void {
  // Lanes in the order they asked (the page's, top first), the trailing jobs after them: each job
  // is a task of its own with the browser's layout and paint between, so the first job is the
  // first chart on screen (opening 100,000 GCs, the pause lane came a paint later than the strip).
  const jobs = [...pending].sort((a, b) => Number(trailing.has(a)) - Number(trailing.has(b)));
  pending.clear();
  inRound.clear();
  latched.clear();
  hurry = false;
  for (const j of jobs) inRound.add(j);
  const start = performance.now();
  const step = (i: number): void => {
    const t = performance.now();
    const job = jobs[i]!;
    // Leaving a session destroys its lanes between two of these tasks: a destroyed lane's job
    // must not run (its canvas is gone).
    drawing = true;
    try {
      if (inRound.delete(job)) job();
    } finally {
      drawing = false;
    }
    // bench/live-ui.ts: the drawing work of one lane (its rasterization follows in the same task).
    if (benchMeasures()) performance.measure('gcscope:lanes-drawn', { start: t, end: performance.now() });
    if (i + 1 < jobs.length) setTimeout(() => step(i + 1), 0);
    // Two frames on, the frame that showed the last lane has been painted.
    else requestAnimationFrame(() => requestAnimationFrame(finish));
  };
  const finish = (): void => {
    const now = performance.now();
    nextAt = Math.max(start + pace, now + Math.min(MAX_WAIT, Math.max(0, now - start - 33)));
    scheduled = false;
    // Lanes that changed while this round ran.
    if (pending.size > 0) {
      const again = [...pending];
      pending.clear();
      for (const j of again) requestRedraw(j);
    }
  };
  if (jobs.length > 0) step(0);
  else scheduled = false;
}
