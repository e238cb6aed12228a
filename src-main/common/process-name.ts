/**
 * A process's display name from its command line: what the process list (diagnostics/), the
 * recorder and the trace's process description (gc/) all show. Pure.
 */

/** `dotnet /path/App.dll args` → App; `/path/App args` → App. */
export function processNameFromCommandLine(cmd: string): string | null {
  const tokens = cmd.match(/"[^"]*"|\S+/g)?.map((t) => t.replace(/^"|"$/g, '')) ?? [];
  if (tokens.length === 0) return null;
  const base = (p: string): string =>
    p
      .split(/[\\/]/)
      .pop()!
      .replace(/\.(dll|exe)$/i, '');
  const first = base(tokens[0]!);
  if (/^(dotnet|corerun)$/i.test(first) && tokens.length > 1) {
    const dll = tokens.slice(1).find((t) => /\.dll$/i.test(t));
    if (dll !== undefined) return base(dll);
  }
  return first;
}
