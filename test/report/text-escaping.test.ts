/** The text report prints what the trace says about its process; a hostile trace must not drive the terminal. */
import { describe, expect, it } from 'vitest';
import { reportFromFile } from '../../src-main/recording/report-source.js';
import { renderTextReport } from '../../src-main/report/text.js';
import { TRACES } from '../helpers/fixtures.js';

describe('text report of a trace with control characters in its process information', () => {
  it('prints the process name and command line with escape sequences made visible, on one line each', async () => {
    const rep = await reportFromFile(TRACES + 'workload-workstation.nettrace.zip');
    rep.process.name = 'evil\u001b[2J';
    rep.process.commandLine = 'dotnet app.dll\n\u001b]0;owned\u0007 --flag';
    const text = renderTextReport(rep);
    // eslint-disable-next-line no-control-regex -- the point is that none are left
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain('Process     evil\\x1b[2J');
    expect(text).toContain('Command     dotnet app.dll\\n\\x1b]0;owned\\x07 --flag');
  });
});
