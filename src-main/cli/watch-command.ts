/**
 * `gcscope watch --pid N`: the flight recorder (watch/watcher.ts). Every GC goes to the session
 * database; a trigger writes a .nettrace capture of the seconds around its GC. Human output: one
 * line per trigger and per capture on stderr (GC lines with --verbose); --json: one JSON object
 * per line on stdout ({"trigger":…}, {"capture":…}, {"gc":…} with --verbose), then a summary.
 */
import { keepAlive } from './keep-alive.js';
import { dirname, join, resolve } from 'node:path';
import { IpcError } from '../diagnostics/ipc-codec.js';
import { DiagnosticsError } from '../diagnostics/transport.js';
import { recoverInterruptedSessions } from '../recording/recovery.js';
import { formatMB, formatMs } from '../shared/format.js';
import { DEFAULT_WATCH_SETTINGS, Watcher } from '../watch/watcher.js';
import { TriggerSet, TriggerSyntaxError } from '../watch/triggers.js';
import { parseDuration } from './live-commands.js';
import { CliError, EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, jsonReplacer } from './output.js';
import { openDb } from './store-commands.js';

export interface WatchCliOptions {
  pid?: string;
  trigger?: string[];
  ringMb?: string;
  before?: string;
  after?: string;
  cooldown?: string;
  maxPerHour?: string;
  out?: string;
  db?: string;
  verboseAfter?: boolean;
  reattach?: boolean;
  duration?: string;
  verbose?: boolean;
  json?: boolean;
}

function positive(v: string | undefined, flag: string, def: number, opts: { integer?: boolean; zero?: boolean; seconds?: boolean } = {}): number {
  if (v === undefined) return def;
  const n = opts.seconds === true ? parseDuration(v) / 1000 : Number(v);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && opts.zero !== true) || (opts.integer === true && !Number.isInteger(n))) {
    throw new CliError(`${flag} needs a ${opts.integer === true ? 'whole ' : ''}number${opts.zero === true ? '' : ' above 0'}, not "${v}"`, EXIT_BAD_INPUT);
  }
  return n;
}

export async function runWatch(opts: WatchCliOptions): Promise<number> {
  const pid = Number(opts.pid);
  if (opts.pid === undefined || !Number.isInteger(pid) || pid <= 0) throw new CliError('watch needs --pid N (gcscope ps lists the processes)', EXIT_BAD_INPUT);
  const triggers = opts.trigger ?? [];
  try {
    TriggerSet.parse(triggers);
  } catch (e) {
    if (e instanceof TriggerSyntaxError) throw new CliError(`--trigger: ${e.message}`, EXIT_BAD_INPUT);
    throw e;
  }
  const d = DEFAULT_WATCH_SETTINGS;
  const settings = {
    triggers,
    ringMB: positive(opts.ringMb, '--ring-mb', d.ringMB),
    beforeSec: positive(opts.before, '--before', d.beforeSec, { zero: true, seconds: true }),
    afterSec: positive(opts.after, '--after', d.afterSec, { zero: true, seconds: true }),
    cooldownSec: positive(opts.cooldown, '--cooldown', d.cooldownSec, { zero: true, seconds: true }),
    maxPerHour: positive(opts.maxPerHour, '--max-per-hour', d.maxPerHour, { integer: true }),
    verboseAfter: opts.verboseAfter === true,
    reattach: opts.reattach === true,
  };
  const durationMs = opts.duration !== undefined ? parseDuration(opts.duration) : undefined;
  const db = await openDb(opts.db, { mapped: false });
  for (const r of await recoverInterruptedSessions(db)) process.stderr.write(`recovered session ${r.sessionId} (${r.name}): ${r.message}\n`);
  const outDir = resolve(opts.out ?? join(dirname(db.path), 'captures'));
  const json = opts.json === true;
  const line = (o: unknown): void => void process.stdout.write(JSON.stringify(o, jsonReplacer) + '\n');
  const watcher = new Watcher(db, {
    ...settings,
    pid,
    outDir,
    onGC: (g) => {
      if (opts.verbose !== true) return;
      if (json) line({ gc: g });
      else process.stderr.write(`GC #${g.number} ${g.gcGenerationName} pause ${formatMs(g.pauseDurationMSec)}\n`);
    },
    onTrigger: (hit, refused) => {
      if (json) line({ trigger: { ...hit, refused } });
      else
        process.stderr.write(
          `trigger ${hit.trigger} on GC #${hit.gcNumber}: ${hit.detail}${refused !== null ? ` — no capture: ${refused}` : ' — capturing'}\n`,
        );
    },
    onCapture: (c) => {
      if (json) line({ capture: c });
      else
        process.stderr.write(
          c.status === 'complete'
            ? `capture ${c.path} (${formatMB((c.bytes ?? 0) / 1e6)}, ${formatMs(c.fromMSec ?? 0)} – ${formatMs(c.toMSec ?? 0)})${c.captureSessionId !== null ? `, session ${c.captureSessionId}` : ''}${c.verbosePath !== null ? `; verbose after: ${c.verbosePath}` : ''}\n`
            : `capture ${c.path} failed\n`,
        );
    },
    onNote: (m) => (json ? line({ note: m }) : process.stderr.write(`${m}\n`)),
  });
  let interrupted = 0;
  const onSigint = (): void => {
    interrupted++;
    if (interrupted === 1) {
      process.stderr.write('\nstopping (writing captures in progress; Ctrl+C again to abandon them)…\n');
      void watcher.stop();
    } else process.exit(130);
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  let timer: NodeJS.Timeout | undefined;
  try {
    try {
      await watcher.start();
    } catch (e) {
      if (e instanceof DiagnosticsError) throw new CliError(e.message, EXIT_BAD_INPUT);
      if (e instanceof IpcError) throw new CliError(`attaching failed: ${e.message}`, EXIT_FAILURE);
      throw e;
    }
    if (durationMs !== undefined) timer = setTimeout(() => void watcher.stop(), durationMs);
    const info = watcher.processInfo!;
    const trig = TriggerSet.parse(triggers)
      .triggers.map((t) => t.text)
      .join(' | ');
    if (!json)
      process.stderr.write(
        `watching ${info.managedEntrypointAssemblyName ?? 'process'} (pid ${info.processId}${info.innerProcessId !== undefined ? `, PID ${info.innerProcessId} inside its container` : ''}, .NET ${info.clrProductVersion ?? '?'}) in session ${watcher.sessionId}: every GC stored; on ${trig}, a capture of ${settings.beforeSec} s before to ${settings.afterSec} s after into ${outDir} ` +
          `(ring ${settings.ringMB} MB, cooldown ${settings.cooldownSec} s, at most ${settings.maxPerHour} per hour). ${durationMs !== undefined ? `Stopping after ${formatMs(durationMs)}.` : 'Ctrl+C stops.'}\n`,
      );
    else
      line({
        watching: {
          sessionId: watcher.sessionId,
          pid: info.processId,
          ...(info.innerProcessId !== undefined ? { innerPid: info.innerProcessId } : {}),
          ...settings,
          triggers: trig,
          outDir,
        },
      });
    const r = await keepAlive(watcher.done());
    const ring = watcher.ringStats;
    const summary = {
      sessions: r.sessions,
      gcCount: r.lastRecording?.gcCount ?? 0,
      endedBy: r.lastRecording?.endedBy ?? null,
      triggersFired: r.triggersFired,
      triggersRefused: r.triggersRefused,
      triggersCovered: r.triggersCovered,
      captures: r.captures.map((c) => ({ id: c.id, path: c.path, status: c.status, sessionId: c.captureSessionId })),
      ring: ring ?? null,
    };
    if (json) line({ summary });
    else
      process.stderr.write(
        `\nwatch ended (${summary.endedBy === 'target-exited' ? 'the process ended' : 'stopped'}): ${summary.gcCount} GCs stored in session ${r.sessions.join(', ')}; ${r.triggersFired} trigger${r.triggersFired === 1 ? '' : 's'} captured, ${r.triggersCovered > 0 ? `${r.triggersCovered} on a GC already captured, ` : ''}${r.triggersRefused} held back by the limits; ${r.captures.length} capture file${r.captures.length === 1 ? '' : 's'}.\n`,
      );
    return EXIT_OK;
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await db.close();
  }
}
