/**
 * The lanes' y axes: their ticks carry the unit they need (KB, MB, GB; µs, ms, s), so the axis
 * label names the quantity. A tester read the survival lane's "MB" label over ticks of "100 KB".
 */
import { describe, expect, it } from 'vitest';
import { heapOptions, pauseOptions, rateOptions, survivalOptions } from '../../src-renderer/charts/chart-options.js';

// The options read the page's CSS colours; outside a browser every variable is unset (the fallbacks).
Object.assign(globalThis, { getComputedStyle: () => ({ getPropertyValue: () => '' }), document: { documentElement: {} }, devicePixelRatio: 1 });

const hooks = { onSelect: () => undefined, onRange: () => undefined, onHover: () => undefined } as unknown as Parameters<typeof rateOptions>[2];

describe('lane axis labels', () => {
  it('name a quantity, never a unit the ticks may contradict', () => {
    const lanes = {
      pauses: pauseOptions(800, 190, hooks, () => []),
      heap: heapOptions(
        800,
        190,
        hooks,
        () => null,
        () => undefined,
      ),
      rates: rateOptions(800, 150, hooks),
      survival: survivalOptions(800, 150, hooks),
    };
    for (const [lane, o] of Object.entries(lanes)) {
      const labels = o
        .axes!.slice(1)
        .map((a) => a.label)
        .filter((l): l is string => typeof l === 'string' && l !== '');
      expect(labels.length, lane).toBeGreaterThan(0);
      for (const l of labels) expect(l, lane).not.toMatch(/^(B|KB|MB|GB|µs|ms|s|MB\/s)$/);
    }
  });
});
