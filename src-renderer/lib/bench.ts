/**
 * Performance measures for the benchmarks (bench/live-ui.ts sets `window.__gcscopeBench`): the
 * app itself never records them, so a long session does not fill the performance timeline.
 */
export function benchMeasures(): boolean {
  return (globalThis as { __gcscopeBench?: boolean }).__gcscopeBench === true;
}
