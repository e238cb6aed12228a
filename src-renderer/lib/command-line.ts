/**
 * A process's command line as the process list shows it: paths cut to their file names, so
 * the arguments that tell two processes apart are not ellipsised away behind
 * "/usr/share/dotnet/dotnet /srv/app/bin/Release/net10.0/…". The full line stays in the cell's
 * tooltip. Pure.
 */

/** A token that is a file path (absolute or relative, Unix or Windows), optionally quoted. */
const PATH = /^(["']?)((?:[A-Za-z]:)?[\\/]|\.{1,2}[\\/])(.*[\\/])?([^\\/]*?)\1$/;

export function shortCommandLine(line: string): string {
  // Quoted tokens may hold spaces ("C:\Program Files\dotnet\dotnet.exe").
  const tokens = line.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  return tokens
    .map((t) => {
      const m = PATH.exec(t);
      if (m === null) return t;
      const name = m[4] ?? '';
      return name === '' ? t : name;
    })
    .join(' ');
}
