/**
 * One redraw queue for all lanes. Lanes that changed are redrawn together in one animation frame,
 * so they move as one and the browser commits and paints the page once for all of them (a frame
 * per lane cost a commit, paint and composite each: with four canvases and ten live batches a
 * second, that rendering work, not the drawing, filled the main thread). The next round waits
 * as long as this one took, measured up to the next frame so the browser's paint and compositing
 * of the canvases count too: while a live recording pushes 10 batches a second, charts take at
 * most about half of the main thread and the page stays responsive however slow the machine; on
 * a fast one a lane still redraws every frame.
 */
type Job = () => void;

const pending = new Set<Job>();
let scheduled = false;
let nextAt = 0;
/** Longest pause between rounds (ms), so a very slow round does not freeze the charts. */
const MAX_WAIT = 400;

export function requestRedraw(job: Job): void {
  pending.add(job);
  if (scheduled) return;
  scheduled = true;
  const wait = nextAt - performance.now();
  if (wait > 0) setTimeout(() => requestAnimationFrame(round), wait);
  else requestAnimationFrame(round);
}

/** Drops a lane's queued redraw (the lane is being destroyed). */
export function cancelRedraw(job: Job): void {
  pending.delete(job);
}

function round(): void {
  const jobs = [...pending];
  pending.clear();
  if (jobs.length === 0) {
    scheduled = false;
    return;
  }
  const start = performance.now();
  for (const j of jobs) j();
  // The next frame starts once this one (with every lane in it) has been painted.
  requestAnimationFrame(() => {
    const now = performance.now();
    nextAt = now + Math.min(MAX_WAIT, Math.max(0, now - start - 17));
    scheduled = false;
    // Lanes that changed while this round ran.
    if (pending.size > 0) {
      const again = [...pending];
      pending.clear();
      for (const j of again) requestRedraw(j);
    }
  });
}
