/**
 * Crash recovery: a session still in state 'recording' whose recorder process is gone was cut
 * off (GCScope or the machine stopped mid-recording). At the next start it is rebuilt from its raw
 * trace: the file is finalized (cut back to its last complete block + end marker) and re-imported
 * into the same session, which is then marked 'interrupted' with what was recovered.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { processExists } from '../diagnostics/discovery.js';
import type { SessionInfo } from '../shared/session.js';
import { finishCapture, listCaptures } from '../store/captures.js';
import type { Database } from '../store/db.js';
import { getSessionStatus, sessionsWithStatus, updateSession } from '../store/sessions.js';
import { importTrace } from './importer.js';
import { finalizeRawTrace } from './raw-trace.js';

export interface Recovered {
  sessionId: number;
  name: string;
  ok: boolean;
  message: string;
}

/** Seconds since the epoch at which a process started (Linux /proc), or undefined when unknown. */
function processStartSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime, in clock ticks since boot) counted after the ")" that ends the
    // command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    // USER_HZ is 100 on every Linux ABI Node runs on.
    return Number.isFinite(ticks) && Number.isFinite(btime) ? btime + ticks / 100 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that wrote a 'recording' session is still at it. A live process with that
 * pid is not enough: pids are reused, and a process that started after the session's last write
 * cannot be its recorder (this one included: a recorder killed earlier may have had our pid).
 * `btime` has one-second precision, hence the slack.
 */
export function recorderAlive(s: Pick<SessionInfo, 'recorderPid' | 'updatedAt'>): boolean {
  const pid = s.recorderPid;
  if (pid === null) return false;
  if (pid !== process.pid && !processExists(pid)) return false;
  const started = processStartSeconds(pid);
  const lastWrite = Date.parse(s.updatedAt) / 1000;
  if (started !== undefined && Number.isFinite(lastWrite) && started > lastWrite + 2) return false;
  return true;
}

/**
 * Sessions left in 'recording' by a recorder that is gone: they need recovery. GC recordings only:
 * recovery re-imports a GC trace, and a session of another kind is left to the GCScope that knows it.
 */
export async function sessionsToRecover(db: Database): Promise<SessionInfo[]> {
  return (await sessionsWithStatus(db, 'recording')).filter((s) => s.kind === 'gc' && !recorderAlive(s));
}

export async function recoverInterruptedSessions(db: Database): Promise<Recovered[]> {
  const out: Recovered[] = [];
  for (const s of await sessionsToRecover(db)) {
    // Settled meanwhile: a capture's own import, recovered with its watch's captures below.
    if ((await getSessionStatus(db, s.id)) !== 'recording') continue;
    const path = s.tracePath;
    if (path === null && s.tags.includes('watch')) {
      // A watch (watch/watcher.ts) tees no raw trace: its GC rows and captures were written as
      // they came and are kept; only the in-memory ring is gone.
      const lost = await settleCaptures(db, s);
      const message = `GCScope stopped while watching; the GCs and captures stored until then are kept (the raw events held in memory are lost)${lost.length > 0 ? `; ${lost.join('; ')}` : ''}`;
      await updateSession(db, s.id, { status: 'interrupted', statusReason: message, recorderPid: null });
      out.push({ sessionId: s.id, name: s.name, ok: true, message });
      continue;
    }
    if (path === null || !existsSync(path)) {
      await updateSession(db, s.id, {
        status: 'failed',
        statusReason: `the recording was interrupted and its raw trace (${path ?? 'no file'}) is missing`,
        recorderPid: null,
      });
      out.push({ sessionId: s.id, name: s.name, ok: false, message: 'raw trace missing' });
      continue;
    }
    try {
      const fin = s.source === 'record' ? await finalizeRawTrace(path) : undefined;
      const r = await importTrace(db, path, { sessionId: s.id });
      const message =
        s.source === 'record'
          ? `GCScope stopped while recording; recovered ${r.gcCount} GCs from the raw trace${fin !== undefined && fin.droppedBytes > 0 ? ` (an incomplete last block of ${fin.droppedBytes} bytes was dropped)` : ''}`
          : `GCScope stopped while importing; imported again from ${path}`;
      await updateSession(db, s.id, { status: s.source === 'record' ? 'interrupted' : r.status, statusReason: message, recorderPid: null });
      out.push({ sessionId: s.id, name: s.name, ok: true, message });
    } catch (e) {
      await updateSession(db, s.id, { status: 'failed', statusReason: `recovery failed: ${(e as Error).message}`, recorderPid: null });
      out.push({ sessionId: s.id, name: s.name, ok: false, message: (e as Error).message });
    }
  }
  return out;
}

/**
 * A watch's captures a crash left 'writing' (GCScope stopped in a capture's post-roll, while
 * writing its file or importing it): one whose file is a readable trace — cut back to its last
 * complete block, as a raw trace is — is imported (into its own cut-off import session, if that
 * was started) and complete; any other is failed. Returns why each failed one could not be kept.
 */
async function settleCaptures(db: Database, watch: SessionInfo): Promise<string[]> {
  const failed: string[] = [];
  for (const c of await listCaptures(db, watch.id)) {
    if (c.status !== 'writing') continue;
    try {
      if (!existsSync(c.path)) throw new Error('GCScope stopped before its file was written');
      await finalizeRawTrace(c.path);
      const cutOff = (await sessionsWithStatus(db, 'recording')).find((x) => x.source === 'import' && x.tracePath === c.path);
      const r = await importTrace(
        db,
        c.path,
        cutOff !== undefined ? { sessionId: cutOff.id } : { name: `capture: ${c.trigger} at GC #${c.gcNumber}`, force: true },
      );
      await updateSession(db, r.sessionId, {
        processName: watch.processName,
        processId: watch.processId,
        commandLine: watch.commandLine,
        runtimeVersion: watch.runtimeVersion,
        tags: ['capture'],
        recorderPid: null,
      });
      await finishCapture(db, c.id, { status: 'complete', bytes: statSync(c.path).size, captureSessionId: r.sessionId });
    } catch (e) {
      await finishCapture(db, c.id, { status: 'failed' });
      failed.push(`capture ${c.id} (GC #${c.gcNumber}, ${c.trigger}) is lost: ${(e as Error).message}`);
    }
  }
  return failed;
}
