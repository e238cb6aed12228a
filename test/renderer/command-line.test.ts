import { describe, expect, it } from 'vitest';
import { shortCommandLine } from '../../src-renderer/lib/command-line.js';

describe("the process list's command line", () => {
  it('shows file names for paths, so the arguments that tell processes apart stay in view', () => {
    expect(
      shortCommandLine(
        '/usr/share/dotnet/dotnet /work/main/test/workloads/GcWorkload/bin/gcscope-publish/4ef2/net10.0/GcWorkload.dll --scenario churn --seconds 60',
      ),
    ).toBe('dotnet GcWorkload.dll --scenario churn --seconds 60');
    expect(shortCommandLine('"C:\\Program Files\\dotnet\\dotnet.exe" C:\\srv\\Api\\Api.dll --urls http://localhost:5000')).toBe(
      'dotnet.exe Api.dll --urls http://localhost:5000',
    );
    expect(shortCommandLine('./bin/MyApp --mode fast')).toBe('MyApp --mode fast');
  });

  it('a path through a folder whose name has a space is one path (the runtime writes it unquoted)', () => {
    expect(shortCommandLine('dotnet /tmp/tmp.L0/with space/gcscope/bin/net10.0/GcWorkload.dll --scenario churn')).toBe(
      'dotnet GcWorkload.dll --scenario churn',
    );
    expect(shortCommandLine('C:\\Users\\me\\My Projects\\Api\\Api.exe --urls http://localhost:5000')).toBe('Api.exe --urls http://localhost:5000');
    // A file path followed by a relative argument stays two tokens.
    expect(shortCommandLine('dotnet /srv/app/bin/app.dll data/in.txt')).toBe('dotnet app.dll data/in.txt');
  });

  it('leaves what is not a path alone: URLs, options, ratios', () => {
    expect(shortCommandLine('MyApp --urls http://localhost:5000 --ratio 1/2')).toBe('MyApp --urls http://localhost:5000 --ratio 1/2');
    expect(shortCommandLine('')).toBe('');
  });
});
