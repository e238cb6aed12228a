/**
 * A full V8 garbage collection as the command's last step, so that the process can exit.
 *
 * Node 20 can hang for ever at exit (nodejs/node#54918, seen here as `gcscope diagnose` never
 * ending in ~2 % of runs): when the event loop empties, the main thread waits in
 * `NodePlatform::DrainTasks` for V8's background jobs to finish, while a background TurboFan job,
 * short of old-generation space, waits for the main thread to run a garbage collection. Neither
 * moves. `process.exit()` does not avoid it (it joins the same threads). Collecting here, with
 * the main thread still running JavaScript, serves any collection already asked for and leaves
 * the old generation far below its limit, so a job finishing after it allocates without asking.
 * Costs ~7 ms; turning concurrent compilation off instead (a start-up flag) cost 15–30 % of a
 * `report`. 300 runs of the case that hung 5 times in 300 did not hang once.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function collectBeforeExit(): void {
  setFlagsFromString('--expose-gc');
  // The flag exposes gc() only in contexts created after it is set.
  const gc = runInNewContext('gc') as (() => void) | undefined;
  if (typeof gc === 'function') gc();
}
