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

  it('leaves what is not a path alone: URLs, options, ratios', () => {
    expect(shortCommandLine('MyApp --urls http://localhost:5000 --ratio 1/2')).toBe('MyApp --urls http://localhost:5000 --ratio 1/2');
    expect(shortCommandLine('')).toBe('');
  });
});
