/**
 * A lane's value → canvas pixel as two numbers, taken once per drawing: `at + v * per` is
 * uPlot's `valToPos(v, key, true)` for the linear scales every lane uses. Calling valToPos for
 * each vertex returned a boxed number per call (it is not inlined into a draw hook): with the
 * lanes following a live recording, those and the path builders' own boxed doubles were about a
 * third of everything the page allocated (bench:live-ui's LIVE_ALLOC, ~9.6 MB/s), which is what
 * its young-generation collections (10–20 ms each, inside whatever task they hit) feed on.
 */
import type uPlot from 'uplot';

export interface LinearPos {
  /** Canvas position of the value 0. */
  at: number;
  /** Canvas pixels per unit (negative for a y scale: up is smaller). */
  per: number;
}

/** Scale `key`'s linear map to canvas pixels, from uPlot's own (so the plot box and direction are its). */
export function linearPos(u: uPlot, key: string): LinearPos {
  const at = u.valToPos(0, key, true);
  return { at, per: u.valToPos(1, key, true) - at };
}
