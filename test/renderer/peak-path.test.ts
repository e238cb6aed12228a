/**
 * The lanes' lines and areas at high density: one vertex per pixel column at its peak, breaks only
 * where a whole column has no value. Path2D is recorded (Node has none); uPlot's valToPos is
 * stood in for by a linear scale (x: 1 px per unit, y: value = pixels above y 100).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type uPlot from 'uplot';

type Op = [string, number, number] | ['close'];
class RecordingPath {
  ops: Op[] = [];
  moveTo(x: number, y: number): void {
    this.ops.push(['M', x, y]);
  }
  lineTo(x: number, y: number): void {
    this.ops.push(['L', x, y]);
  }
  closePath(): void {
    this.ops.push(['close']);
  }
}
beforeAll(() => {
  (globalThis as { Path2D?: unknown }).Path2D = RecordingPath;
});

const plot = (xs: number[], ys: (number | null)[], spanGaps = false): uPlot =>
  ({
    data: [xs, ys],
    series: [{}, { scale: 'y', spanGaps }],
    valToPos: (v: number, scale: string) => (scale === 'x' ? v : 100 - v),
  }) as unknown as uPlot;

async function build(fill: boolean, xs: number[], ys: (number | null)[], spanGaps = false, step = false): Promise<{ stroke: Op[]; fill: Op[] | null }> {
  const { peakPath } = await import('../../src-renderer/charts/peak-path.js');
  const p = peakPath(fill, step)(plot(xs, ys, spanGaps), 1, 0, xs.length - 1)!;
  return { stroke: (p.stroke as unknown as RecordingPath).ops, fill: p.fill ? (p.fill as unknown as RecordingPath).ops : null };
}

describe('lines and areas drawn one vertex per pixel column', () => {
  it('many GCs in one column draw one vertex at their peak, not a zigzag through all of them', async () => {
    const { stroke } = await build(false, [0, 0.2, 0.4, 1, 1.3, 2], [10, 50, 20, 5, 30, 7]);
    expect(stroke).toEqual([
      ['M', 0, 50],
      ['L', 1, 70],
      ['L', 2, 93],
    ]);
  });

  it('with fewer GCs than columns every GC is a vertex, as a plain line draws it', async () => {
    const { stroke } = await build(false, [0, 10, 20], [1, 2, 3]);
    expect(stroke).toEqual([
      ['M', 0, 99],
      ['L', 10, 98],
      ['L', 20, 97],
    ]);
  });

  it('a GC without the value inside a column does not break the area (no sliver down to the axis)', async () => {
    const { stroke, fill } = await build(true, [0, 0.5, 1, 2], [10, null, 20, 30]);
    expect(stroke).toEqual([
      ['M', 0, 90],
      ['L', 1, 80],
      ['L', 2, 70],
    ]);
    expect(fill).toEqual([['M', 0, 100], ['L', 0, 90], ['L', 1, 80], ['L', 2, 70], ['L', 2, 100], ['L', 0, 100], ['close']]);
  });

  it('a whole column without a value breaks the line, unless the series spans gaps', async () => {
    const xs = [0, 1, 2, 3, 4];
    const ys = [10, 10, null, 20, 20];
    expect((await build(false, xs, ys)).stroke).toEqual([
      ['M', 0, 90],
      ['L', 1, 90],
      ['M', 3, 80],
      ['L', 4, 80],
    ]);
    expect((await build(false, xs, ys, true)).stroke).toEqual([
      ['M', 0, 90],
      ['L', 1, 90],
      ['L', 3, 80],
      ['L', 4, 80],
    ]);
  });

  it('NaN is no value, as null is (the session lanes hold NaN)', async () => {
    const { stroke } = await build(false, [0, 1, 2, 3], [5, Number.NaN, Number.NaN, 6]);
    expect(stroke).toEqual([
      ['M', 0, 95],
      ['M', 3, 94],
    ]);
  });

  it('a per-interval value (the allocation rate) is level over the interval before its GC, not a slope across it', async () => {
    const { stroke } = await build(false, [0, 10, 20], [1, 5, 3], false, true);
    expect(stroke).toEqual([
      ['M', 0, 99],
      ['L', 0, 95],
      ['L', 10, 95],
      ['L', 10, 97],
      ['L', 20, 97],
    ]);
    // Many GCs to a column (x 0 and 0.4 in column 0, 1.5 and 2 in column 2): one level per column, at its peak.
    expect((await build(false, [0, 0.4, 1, 1.5, 2], [1, 4, 2, 6, 3], false, true)).stroke).toEqual([
      ['M', 0, 96],
      ['L', 0, 98],
      ['L', 1, 98],
      ['L', 1, 94],
      ['L', 2, 94],
    ]);
  });
});
