/**
 * The memory headroom lane's scales (charts/server-gc-lane-options.ts): the heap on the left
 * axis and the memory load on the right one share a plot, and a heap drawn up to the top ran
 * along the right axis's 90 % high-load line, which a tester read as the heap reaching a
 * threshold. The highest value now tops out at 80 % of the height.
 */
import type uPlot from 'uplot';
import { describe, expect, it } from 'vitest';
import { headroomOptions } from '../../src-renderer/charts/server-gc-lane-options.js';

// The options read the page's CSS colours; outside a browser every variable is unset (the fallbacks).
Object.assign(globalThis, { getComputedStyle: () => ({ getPropertyValue: () => '' }), document: { documentElement: {} }, devicePixelRatio: 1 });

const hooks = { onSelect: () => undefined, onRange: () => undefined, onHover: () => undefined } as unknown as Parameters<typeof headroomOptions>[2];

describe('the memory headroom lane', () => {
  it('puts the highest heap or committed value at 80 % of the height, below the 90 % high-load line; load runs 0–100 %', () => {
    const o = headroomOptions(800, 150, hooks, () => null);
    const heap = [100, 640, 300];
    const committed = [120, 700, 320];
    const nan = [Number.NaN, Number.NaN, Number.NaN];
    const u = { data: [[0, 1, 2], heap, committed, nan, [5, 7, 6], [90, 90, 90]], series: o.series, scales: {} } as unknown as uPlot;
    const range = o.scales!.y!.range as (u: uPlot, min: number, max: number, scale: string) => [number, number];
    const [lo, hi] = range(u, 0, 700, 'y');
    expect(lo).toBe(0);
    expect(700 / hi).toBeCloseTo(0.8, 6);
    expect(o.scales!.load!.range).toEqual([0, 100]);
  });
});
