/**
 * The induced-GCs finding names the callers of GC.Collect: one line per caller, whatever the
 * frames around it (the JIT inlines a frame at tier-up, so one caller's GCs arrive with two
 * stacks; the card listed "Program.Bgc() (14 of 16)" and "Program.Bgc() (2 of 16)").
 */
import { describe, expect, it } from 'vitest';
import { stackEvidenceLines, withStackEvidence } from '../../src-main/report/stack-evidence.js';
import type { WhoCausedIt } from '../../src-main/shared/allocations.js';
import type { Finding } from '../../src-main/shared/finding.js';

const COLLECT = 'System.GC.Collect(int32,value class System.GCCollectionMode,bool,bool,bool)';
const tiered = [COLLECT, 'Program.Bgc()', 'Program.Main(class System.String[])'];
const early = [COLLECT, 'Program.Bgc()', 'Program.Run(class System.String)', 'Program.Main(class System.String[])'];
const other = ['System.GC.Collect()', 'Program.Induced()', 'Program.Main(class System.String[])'];

const finding = {
  id: 'induced-gcs',
  severity: 'warning',
  score: 80,
  title: '',
  explanation: '',
  advice: '',
  evidence: { gcs: Array.from({ length: 17 }, (_, i) => i + 1), startMSec: 0, endMSec: 1 },
} as unknown as Finding;

describe('who called GC.Collect', () => {
  it('one line per caller, with its commonest stack and all of its GCs', () => {
    // As the stacks reader gives them: each trigger with its caller (symbols/allocations.ts).
    const triggers = [
      ...Array.from({ length: 14 }, (_, i) => ({ gcNumber: i + 1, frames: tiered, caller: 'Program.Bgc()' })),
      { gcNumber: 15, frames: early, caller: 'Program.Bgc()' },
      { gcNumber: 16, frames: early, caller: 'Program.Bgc()' },
      { gcNumber: 17, frames: other, caller: 'Program.Induced()' },
    ];
    const who = { triggers, allocations: { byType: [] }, largeObjectStacks: [] } as unknown as WhoCausedIt;
    const [f] = withStackEvidence([finding], who);
    expect(f!.evidence.stacks).toEqual([
      { frames: tiered, weight: '16 of 17 induced GCs' },
      { frames: other, weight: '1 of 17 induced GCs' },
    ]);
  });
});

describe('type evidence in text', () => {
  it('tells one type on several heaps apart by its heap (it read "System.Byte[] 11.5 GB, System.Byte[] 1.21 GB")', () => {
    const f = {
      ...finding,
      id: 'growing-live-set',
      evidence: {
        ...finding.evidence,
        types: [
          { typeName: 'System.Byte[]', kind: 'small', sampledBytes: 11.5e9, share: 0.8 },
          { typeName: 'System.Byte[]', kind: 'large', sampledBytes: 1.21e9, share: 0.1 },
          { typeName: 'System.String', kind: 'small', sampledBytes: 288e6, share: 0.02 },
        ],
      },
    } as unknown as Finding;
    const [line] = stackEvidenceLines(f, '');
    expect(line).toMatch(/^types: System\.Byte\[\] \(SOH\) 11\.5 GB, System\.Byte\[\] \(LOH\) 1\.21 GB, System\.String 288 MB$/);
  });
});
