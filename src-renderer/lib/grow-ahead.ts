/**
 * When to grow one of many parallel columns ahead of need.
 *
 * A session's columns (one per GC quantity, in the session's state and in each chart lane) fill at
 * the same pace, so doubling each when it is full doubled all of them in the same live batch: at
 * 65,536 GCs the ~35 series columns and ~40 lane columns allocated ~80 MB and copied ~40 MB in one
 * task (23 ms on an idle machine; bench:live-ui measured the batch handler at 54 and 80 ms at
 * ~33,000 and ~65,000 GCs of a 10-minute recording, its only long tasks but one). Instead each
 * owner doubles at most one column per batch once it is three quarters full, so the copies spread
 * over the batches that fill the last quarter (at 100 GCs a second and 65,536 GCs, ~160 s of
 * batches for ~40 columns). A column still full when a batch needs room grows then, as before.
 * Capacity stays under 8/3 of the GCs held.
 */

/** Below this capacity doubling every column at once is cheap (~40 columns of 4,096: ~0.5 ms). */
const AHEAD_FROM = 4096;

/** Whether a column holding `filled` values in `capacity` should be doubled now, ahead of need. */
export function growsAhead(filled: number, capacity: number): boolean {
  return capacity >= AHEAD_FROM && filled * 4 >= capacity * 3;
}
