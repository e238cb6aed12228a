/**
 * Awaits `p` with the process kept alive until it settles. A command's last await (a recording
 * or a watch ending) can wait on deadlines that are unref'd so they never hold the process open
 * by themselves (diagnostics/eventpipe-session.ts); when nothing else is left, Node would exit
 * with code 13 ("unsettled top-level await") before the deadline fires: `gcscope watch
 * --reattach` did so once under load after its target had exited.
 */
export async function keepAlive<T>(p: Promise<T>): Promise<T> {
  const hold = setInterval(() => undefined, 60_000);
  try {
    return await p;
  } finally {
    clearInterval(hold);
  }
}
