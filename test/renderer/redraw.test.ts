import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelRedraw, latchForRound, LIVE_PACE, requestRedraw, setRedrawPace } from '../../src-renderer/charts/redraw.js';

// The redraw queue runs in the page; here frames are timers.
const g = globalThis as { requestAnimationFrame?: (cb: (t: number) => void) => number };
let had: typeof g.requestAnimationFrame;
beforeAll(() => {
  had = g.requestAnimationFrame;
  g.requestAnimationFrame = (cb) => setTimeout(() => cb(performance.now()), 1) as unknown as number;
});
afterAll(() => {
  g.requestAnimationFrame = had;
});

const settled = (): Promise<void> => new Promise((r) => setTimeout(r, 1000));
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe("the lanes' redraw queue", () => {
  it('draws every lane that asked, the overview strip last', async () => {
    const order: string[] = [];
    requestRedraw(() => order.push('strip'), true);
    requestRedraw(() => order.push('pauses'));
    requestRedraw(() => order.push('heap'));
    await settled();
    expect(order).toEqual(['pauses', 'heap', 'strip']);
  });

  it('leaving a session while its lanes are being drawn does not draw the lanes already destroyed (no error from a removed canvas)', async () => {
    const order: string[] = [];
    const heap = (): void => {
      order.push('heap');
    };
    const strip = (): void => {
      order.push('strip');
    };
    // The first lane's task navigates away: the other lanes are destroyed before their turn.
    requestRedraw(() => {
      order.push('pauses');
      cancelRedraw(heap);
      cancelRedraw(strip);
    });
    requestRedraw(heap);
    requestRedraw(strip, true);
    await settled();
    expect(order).toEqual(['pauses']);
    // A lane asking again later is drawn as before.
    requestRedraw(heap);
    await settled();
    expect(order).toEqual(['pauses', 'heap']);
  });

  it('while following live, every lane of one round shows the same window although a batch moved it between two lanes', async () => {
    let window = { min: 0, max: 30 };
    const shown: Record<string, number> = {};
    const lane = (name: string) => (): void => {
      shown[name] = latchForRound('x-range', window).max;
    };
    requestRedraw(() => {
      lane('pauses')();
      // A live batch arrives between the pause lane's task and the heap lane's.
      setTimeout(() => (window = { min: 0.2, max: 30.2 }), 0);
    });
    requestRedraw(lane('heap'));
    requestRedraw(lane('rates'));
    await settled();
    expect(shown).toEqual({ pauses: 30, heap: 30, rates: 30 });
    // The next round takes the new window for all of them.
    requestRedraw(lane('pauses'));
    requestRedraw(lane('heap'));
    await settled();
    expect(shown).toMatchObject({ pauses: 30.2, heap: 30.2 });
    // Outside a round the value passes through.
    expect(latchForRound('x-range', window)).toBe(window);
  });

  it("a lane's first data is drawn without waiting out the pause a slow round left (the first chart of a big session comes sooner)", async () => {
    const busy = (ms: number): void => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    // A 150 ms round leaves a pause of about 150 - 33 ms before the next one.
    requestRedraw(() => busy(150));
    await wait(50);
    const order: string[] = [];
    requestRedraw(() => order.push('waited'));
    setTimeout(() => order.push('60 ms later'), 60);
    await settled();
    expect(order).toEqual(['60 ms later', 'waited']);

    requestRedraw(() => busy(150));
    await wait(50);
    order.length = 0;
    requestRedraw(() => order.push('heap, waiting'));
    requestRedraw(() => order.push('pauses, first data'), false, true);
    setTimeout(() => order.push('60 ms later'), 60);
    await settled();
    // The prompt request brings the whole round forward, the lane already waiting included.
    expect(order).toEqual(['heap, waiting', 'pauses, first data', '60 ms later']);
  });

  it('while following a live recording, rounds start at most every LIVE_PACE ms however often batches come; without the pace, at once', async () => {
    setRedrawPace(LIVE_PACE);
    try {
      await settled();
      const starts: number[] = [];
      const lane = (): void => {
        starts.push(performance.now());
      };
      // A batch every 20 ms for 1 s asks for a redraw each time.
      for (let t = 0; t < 1000; t += 20) setTimeout(() => requestRedraw(lane), t);
      await pause(1100);
      const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
      expect(starts.length).toBeGreaterThanOrEqual(5);
      expect(starts.length).toBeLessThanOrEqual(8);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(LIVE_PACE - 2);
    } finally {
      setRedrawPace(0);
    }
    await settled();
    const at = performance.now();
    let drawn = 0;
    requestRedraw(() => (drawn = performance.now()));
    await settled();
    expect(drawn - at).toBeLessThan(LIVE_PACE);
  });
});
