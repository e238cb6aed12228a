/**
 * A finding card's times are the GC table's: the same clock (seconds since the session started,
 * not the trace's sync time) and the same precision as the table's "Start s". GC #331 of the
 * 478-GC trace paused at 26,852.108 ms after the sync time; the session starts 18.1 ms after it:
 * the table's Start reads 26.834, and the card read "26.85 s – 26.90 s".
 */
import { describe, expect, it } from 'vitest';
import { formatFixed } from '../../src-main/shared/format.js';
import { TABLE_COLUMN_DEFS } from '../../src-main/shared/gc-column-registry.js';
import { findingEvidenceText, sessionSeconds } from '../../src-renderer/lib/finding-evidence.js';

const T0 = 18.108;
const GC331 = { gcs: [331], startMSec: 26852.108, endMSec: 26900.205 };

describe("finding evidence on the GC table's clock", () => {
  it("a single-GC finding starts where that GC's Start cell says, with the table's decimals", () => {
    const start = TABLE_COLUMN_DEFS.find((c) => c.format === 'seconds')!;
    // The table's cell: formatFixed((time - t0) / 1000, digits) under "Start s".
    const cell = formatFixed((GC331.startMSec - T0) / 1000, start.digits);
    expect(cell).toBe('26.834');
    expect(findingEvidenceText({ evidence: GC331 }, T0)).toBe(`GC #331 · ${cell} s – 26.882 s`);
  });

  it('a window of many GCs reads on the same clock', () => {
    expect(findingEvidenceText({ evidence: { gcs: [1, 2, 3, 4, 5], startMSec: 5460, endMSec: 38226.592 } }, T0)).toBe('5 GCs · 5.442 s – 38.208 s');
    expect(sessionSeconds(T0, T0)).toBe('0.000 s');
    // A window starting a hair before the session's origin (a live recording's first GC) reads 0, not "-0.000 s".
    expect(sessionSeconds(T0 - 0.0004, T0)).toBe('0.000 s');
    expect(sessionSeconds(T0 - 1, T0)).toBe('-0.001 s');
    expect(findingEvidenceText({ evidence: { gcs: [], startMSec: null, endMSec: null } }, T0)).toBe('');
  });
});

describe('the stacks a finding card names', () => {
  it('names the first frame outside System.GC, and tells two stacks that share it apart by the next frame where they differ', async () => {
    const { stackLabels } = await import('../../src-renderer/lib/finding-evidence.js');
    const a = [
      'System.GC.Collect(int32,value class System.GCCollectionMode,bool)',
      'Program.Bgc()',
      'Program.Run(class System.String)',
      'Program.Main(class System.String[])',
    ];
    const b = ['System.GC.Collect(int32,value class System.GCCollectionMode,bool)', 'Program.Bgc()', 'Program.Warm()', 'Program.Main(class System.String[])'];
    const c = ['System.GC.Collect()', 'Program.Induced()', 'Program.Main(class System.String[])'];
    expect(stackLabels([a, c])).toEqual(['Program.Bgc()', 'Program.Induced()']);
    expect(stackLabels([a, b])).toEqual(['Program.Bgc() ← Program.Run(class System.String)', 'Program.Bgc() ← Program.Warm()']);
    // A stack of System.GC frames only names its innermost frame.
    expect(stackLabels([['System.GC.Collect()']])).toEqual(['System.GC.Collect()']);
  });
});
