/** Panning, centring and zooming near the ends of a session never show time outside it. */
import { describe, expect, it } from 'vitest';
import { clampRange, idleFollow } from '../../src-renderer/state/time-window.js';

describe("the lanes' time window", () => {
  it('centring a window near the start of the session moves it to start there, keeping its width (no negative times)', () => {
    expect(clampRange({ from: -122, to: 202 }, 0, 5000)).toEqual({ from: 0, to: 324 });
  });
  it('panning past the end stops at the end, keeping the width', () => {
    expect(clampRange({ from: 4900, to: 5400 }, 0, 5000)).toEqual({ from: 4500, to: 5000 });
  });
  it('zooming out beyond the whole session shows the whole session', () => {
    expect(clampRange({ from: -2000, to: 9000 }, 0, 5000)).toEqual({ from: 0, to: 5000 });
  });
  it('a window inside the session is left as it is', () => {
    expect(clampRange({ from: 100, to: 200 }, 0, 5000)).toEqual({ from: 100, to: 200 });
  });
});

describe('following live when the process stopped collecting', () => {
  it('says where the last GC was once it is before the window; says nothing while a GC is in view or nothing is followed', () => {
    const window = { min: 90, max: 120 };
    expect(idleFollow({ sec: 75, number: 412 }, window, true)).toEqual({ agoSec: 45, number: 412 });
    expect(idleFollow({ sec: 95, number: 413 }, window, true)).toBeNull();
    expect(idleFollow({ sec: 75, number: 412 }, window, false)).toBeNull();
    expect(idleFollow(null, window, true)).toBeNull();
  });
});
