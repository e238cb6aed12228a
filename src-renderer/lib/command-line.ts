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
  const raw = line.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  // The runtime joins the arguments with spaces and no quotes, so an unquoted path through a
  // folder whose name has a space ("/home/me/My Projects/app/bin/app.dll") arrives as several
  // tokens: a path whose last part has no extension (a folder, not the file) followed by a token
  // that goes on with a '/' is one path.
  const tokens: string[] = [];
  for (const t of raw) {
    const prev = tokens[tokens.length - 1];
    const isFolderPath = prev !== undefined && PATH.test(prev) && !/\.[^\\/]*$/.test(prev.split(/[\\/]/).pop() ?? '');
    if (isFolderPath && /[\\/]/.test(t) && !/^[-/"']/.test(t)) tokens[tokens.length - 1] = `${prev} ${t}`;
    else tokens.push(t);
  }
  return tokens
    .map((t) => {
      const m = PATH.exec(t);
      if (m === null) return t;
      const name = m[4] ?? '';
      return name === '' ? t : name;
    })
    .join(' ');
}
