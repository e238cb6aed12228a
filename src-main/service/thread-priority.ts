/**
 * Background work (a session's findings, a comparison, an import) yields the CPU to the threads a
 * user is waiting on: the service thread that answers the page, and the page itself. On a 2-core
 * machine the diagnosis of 100,000 GCs (about half a second of a core) ran beside the page it was
 * for; reopening that session at once took longer than before findings existed.
 *
 * Linux only: nice is per thread there, and setpriority(2) given a thread id (read from
 * /proc/thread-self, which Node does not otherwise expose) changes that thread alone. macOS and
 * Windows have no such call through Node (os.setPriority would lower the whole process, the
 * UI's thread included), so they keep the normal priority. A nice of 10 is a preference, not a
 * starvation: on an idle machine the work runs as fast as before.
 */
import { readlinkSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

/** The nice value background workers run at ("below normal" in Node's terms). */
export const BACKGROUND_NICE = constants.priority.PRIORITY_BELOW_NORMAL;

/** The OS id of the calling thread, or null where it cannot be known. */
export function currentThreadId(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    // "/proc/thread-self" → "<pid>/task/<tid>"
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the calling thread's priority to BACKGROUND_NICE (never raises it: a process already
 * started nicer stays so); false where it cannot, and then nothing changed.
 */
export function runInBackground(): boolean {
  const tid = currentThreadId();
  if (tid === null) return false;
  try {
    if (getPriority(tid) < BACKGROUND_NICE) setPriority(tid, BACKGROUND_NICE);
    return true;
  } catch {
    return false;
  }
}
