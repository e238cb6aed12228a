/**
 * What the "% paused" finding blames: many GCs, survivors, or — pauses long for the little that
 * survives — something else (the 478-GC .NET Core 3.0 trace's ~20 ms pauses promote ~0.12 MB each;
 * blaming survival there contradicted the card beside it).
 */
import { describe, expect, it } from 'vitest';
import { reportFromFile } from '../../src-main/recording/report-source.js';
import { TRACES } from '../helpers/fixtures.js';

async function highPause(name: string): Promise<{ explanation: string; advice: string }> {
  const r = await reportFromFile(TRACES + name);
  const f = r.findings.find((x) => x.id === 'high-pause-time');
  if (f === undefined) throw new Error(`${name}: no high-pause-time finding`);
  return f;
}

describe('high % paused: what it blames', () => {
  it('long pauses that promote little are not blamed on survivors', async () => {
    const f = await highPause('eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip');
    expect(f.explanation).toMatch(
      /the pauses themselves are long, and not for what survives: \S+ \S+ promoted per GC on average explains a small part of \S+ ms\./,
    );
    expect(f.advice).toMatch(/^Find what else the pauses wait on/);
  });

  it('many short pauses are blamed on the number of GCs', async () => {
    const f = await highPause('workload-concurrent.nettrace.zip');
    expect(f.explanation).toContain('the cost is the number of GCs');
    expect(f.advice).toMatch(/^Allocate less/);
  });
});
