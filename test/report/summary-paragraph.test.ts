/** The one-paragraph summary `import` and `record` print: every count readable at a glance. */
import { describe, expect, it } from 'vitest';
import { reportFromFile } from '../../src-main/recording/report-source.js';
import { renderSummaryParagraph } from '../../src-main/report/text.js';
import { TRACES } from '../helpers/fixtures.js';

describe('the summary paragraph of a long recording', () => {
  it('groups the thousands of every count, the per-generation ones included ("38,838 gen0", not "38838 gen0")', async () => {
    const rep = await reportFromFile(TRACES + 'workload-workstation.nettrace.zip');
    // As a week-long recording would have them.
    rep.summary.gcCount = 40_112;
    rep.summary.countByGeneration = [38_838, 1_182, 92];
    rep.summary.backgroundGCs = 1_050;
    rep.summary.inducedGCs = 2_000;
    const text = renderSummaryParagraph(rep);
    expect(text).toMatch(/^40,112 GCs \(38,838 gen0, 1,182 gen1, 92 gen2; 1,050 background, 2,000 induced\); pause total/);
  });
});
