/** `gcscope ps` and `gcscope record`: the commands that talk to running .NET processes. */
import type { ChildProcess } from 'node:child_process';
import { keepAlive } from './keep-alive.js';
import { dirname, join, resolve } from 'node:path';
import { gcReasonName } from '../shared/gc-enums.js';
import { containerShortName } from '../shared/container-text.js';
import { listDotnetProcesses, type ListedProcess } from '../diagnostics/process-list.js';
import { unreachableContainers } from '../diagnostics/discovery.js';
import { IpcError } from '../diagnostics/ipc-codec.js';
import { PROFILE_NAMES, type ProfileName } from '../diagnostics/profiles.js';
import { DEFAULT_REQUEST_SOURCES } from '../requests/recording.js';
import { parseRequestSpec, type RequestSource } from '../requests/sources.js';
import { DiagnosticsError } from '../diagnostics/transport.js';
import { LiveRecorder, type RecordTarget } from '../recording/live-recorder.js';
import { recoverInterruptedSessions } from '../recording/recovery.js';
import { reportSourceOfSession } from '../recording/report-source.js';
import { reportHead } from '../report/model.js';
import { getSession } from '../store/sessions.js';
import { formatMB, formatMs } from '../shared/format.js';
import type { GcRecord } from '../shared/gc-record.js';
import { CliError, EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, jsonReplacer } from './output.js';
import { renderSummaryParagraph } from '../report/text.js';
import { openDb } from './store-commands.js';

/** `web (docker)`, or the short id when the host cannot read the name: the Container column of `gcscope ps`. */
export function containerLabel(p: Pick<ListedProcess, 'container' | 'innerPid'>): string {
  const c = p.container;
  const where = c === null ? (p.innerPid !== null ? 'own PID namespace' : '') : `${containerShortName(c)} (${c.engine})`;
  return p.innerPid !== null ? `${where}, PID ${p.innerPid}` : where;
}

export async function runPs(opts: { json?: boolean }): Promise<number> {
  const rows = await listDotnetProcesses();
  const hidden = unreachableContainers();
  if (opts.json === true) {
    process.stdout.write(JSON.stringify({ processes: rows, ...(hidden !== undefined ? { unreachable: hidden } : {}) }, null, 2) + '\n');
    return EXIT_OK;
  }
  // Processes in containers this user cannot look into: one line on stderr, whatever else is listed.
  if (hidden !== undefined) process.stderr.write(`gcscope: ${hidden.message}\n`);
  if (rows.length === 0) {
    process.stdout.write(
      'No .NET processes found that this user can attach to.\n' +
        '  - Processes of other users are not visible: run GCScope as the same user (or root).\n' +
        '  - A process in a container (Docker, Podman, a Kubernetes pod) is listed when GCScope runs on the host as root (sudo gcscope ps).\n' +
        '  - A process started with DOTNET_EnableDiagnostics=0 cannot be attached to.\n' +
        '  - .NET Core 3.0 or later is needed.\n',
    );
    return EXIT_OK;
  }
  // The Container column only when a process is in one (or in a PID namespace of its own).
  const withContainer = rows.some((r) => r.container !== null || r.innerPid !== null);
  const headers = ['PID', 'Name', 'Runtime', 'OS/Arch', ...(withContainer ? ['Container, PID inside'] : []), 'Command line'];
  const table = rows.map((r) => [
    String(r.pid),
    r.name,
    r.runtimeVersion ?? '?',
    `${r.os}/${r.arch}`,
    ...(withContainer ? [containerLabel(r)] : []),
    r.commandLine,
  ]);
  const last = headers.length - 1;
  const w = headers.map((h, i) => Math.max(h.length, ...table.map((t) => t[i]!.length)));
  const line = (c: string[]): string => c.map((x, i) => (i === last ? x : i === 0 ? x.padStart(w[i]!) : x.padEnd(w[i]!))).join('  ');
  process.stdout.write([line(headers), ...table.map(line)].join('\n') + '\n');
  return EXIT_OK;
}

/** "30s", "2m", "1h", "500ms", or plain seconds. */
export function parseDuration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(s.trim());
  if (m === null) throw new CliError(`cannot read duration "${s}": use e.g. 30s, 2m, 1h or 500ms`, EXIT_BAD_INPUT);
  const v = Number(m[1]);
  const unit = m[2] ?? 's';
  return v * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60000 : 3600000);
}

/** `--requests` alone: the default sources; with names: those (each Provider/Start/Stop or an Activity source). */
export function requestSourcesOption(v: true | string[] | undefined): RequestSource[] | undefined {
  if (v === undefined) return undefined;
  if (v === true || v.length === 0) return [...DEFAULT_REQUEST_SOURCES];
  return v.map((t) => {
    const s = parseRequestSpec(t);
    if (typeof s === 'string') throw new CliError(`--requests: ${s}`, EXIT_BAD_INPUT);
    return s;
  });
}

function gcLine(g: GcRecord): string {
  return `GC #${String(g.number).padEnd(6)} ${g.gcGenerationName.padEnd(4)} ${gcReasonName(g.reason).padEnd(18)} pause ${formatMs(g.pauseDurationMSec).padStart(9)}  heap after ${formatMB(g.heapSizeAfterMB).padStart(9)}  at ${formatMs(g.pauseStartRelativeMSec)}`;
}

export async function runRecord(
  command: string[],
  opts: { pid?: string; duration?: string; profile?: string; requests?: true | string[]; db?: string; out?: string; name?: string; json?: boolean },
): Promise<number> {
  const profile = (opts.profile ?? 'gc-collect') as ProfileName;
  const requests = requestSourcesOption(opts.requests);
  if (!PROFILE_NAMES.includes(profile)) throw new CliError(`unknown profile "${opts.profile}": use one of ${PROFILE_NAMES.join(', ')}`, EXIT_BAD_INPUT);
  let target: RecordTarget;
  if (opts.pid !== undefined) {
    if (command.length > 0) throw new CliError('give either --pid or a command to launch, not both', EXIT_BAD_INPUT);
    const pid = Number(opts.pid);
    if (!Number.isInteger(pid) || pid <= 0) throw new CliError(`--pid needs a process id, not "${opts.pid}"`, EXIT_BAD_INPUT);
    target = { pid };
  } else if (command.length > 0) {
    target = { launch: { command: command[0]!, args: command.slice(1) } };
  } else {
    throw new CliError('record needs --pid N, or a command to start: gcscope record -- dotnet app.dll', EXIT_BAD_INPUT);
  }
  const durationMs = opts.duration !== undefined ? parseDuration(opts.duration) : undefined;
  const db = await openDb(opts.db, { mapped: false });
  for (const r of await recoverInterruptedSessions(db)) process.stderr.write(`recovered session ${r.sessionId} (${r.name}): ${r.message}\n`);
  const outDir = resolve(opts.out ?? join(dirname(db.path), 'traces'));
  const json = opts.json === true;
  const recorder = new LiveRecorder(db, {
    target,
    profile,
    outDir,
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(requests !== undefined ? { requests } : {}),
    onGC: (g) => process.stdout.write(json ? JSON.stringify({ gc: g }, jsonReplacer) + '\n' : gcLine(g) + '\n'),
    onTargetOutput: (_s, chunk) => process.stderr.write(chunk),
  });
  let interrupted = 0;
  const onSigint = (): void => {
    interrupted++;
    if (interrupted === 1) {
      process.stderr.write('\nstopping (draining the session; Ctrl+C again to abandon it)…\n');
      void recorder.stop('stopped');
    } else process.exit(130);
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    try {
      await recorder.start();
    } catch (e) {
      if (e instanceof DiagnosticsError) throw new CliError(e.message, EXIT_BAD_INPUT);
      if (e instanceof IpcError) throw new CliError(`attaching failed: ${e.message}`, EXIT_FAILURE);
      throw e;
    }
    const info = recorder.processInfo!;
    if (!json) {
      process.stderr.write(
        `recording ${info.managedEntrypointAssemblyName ?? 'process'} (pid ${info.processId}${info.innerProcessId !== undefined ? `, PID ${info.innerProcessId} inside its container` : ''}, .NET ${info.clrProductVersion ?? '?'}) with ${profile} into session ${recorder.sessionId}; ` +
          `raw trace ${recorder.tracePath}. ${durationMs !== undefined ? `Stopping after ${formatMs(durationMs)}.` : 'Ctrl+C stops.'}\n`,
      );
    }
    const r = await keepAlive(recorder.done());
    // A process this command started lives only for the recording: once --duration or a stop
    // ended it, the process is ended too (otherwise this command would wait on its output pipes
    // until it exits by itself, however long that is).
    const child = recorder.targetProcess;
    if (r.endedBy !== 'target-exited' && child !== undefined && isRunning(child)) {
      if (!json) process.stderr.write(`stopping the process this command started (pid ${child.pid}): the recording has ended\n`);
      await endChild(child);
    }
    // The summary of what was just stored, from the columns the recorder held (not read back).
    const rep = reportHead(reportSourceOfSession(await getSession(db, r.sessionId)), r.columns, { gcCount: r.gcCount, anyCommittedUsage: r.anyCommittedUsage });
    if (json) {
      process.stdout.write(
        JSON.stringify(
          {
            sessionId: r.sessionId,
            tracePath: r.tracePath,
            endedBy: r.endedBy,
            status: r.status,
            statusReason: r.statusReason,
            downgrades: r.downgrades,
            summary: rep.summary,
            quality: rep.quality,
          },
          jsonReplacer,
        ) + '\n',
      );
    } else {
      process.stderr.write(
        `\nSession ${r.sessionId}: ${r.endedBy === 'target-exited' ? 'the process ended' : 'stopped'}${r.statusReason !== null ? ` — ${r.statusReason}` : ''}\n`,
      );
      for (const d of r.downgrades) process.stderr.write(`note: ${d}\n`);
      process.stderr.write(renderSummaryParagraph(rep) + '\n');
    }
    return EXIT_OK;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await db.close();
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.pid !== undefined;
}

/** SIGTERM (the runtime shuts down gracefully on it), then SIGKILL if it is still there after 5 s. */
async function endChild(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const late = setTimeout(() => {
    if (isRunning(child)) child.kill('SIGKILL');
  }, 5000);
  await exited;
  clearTimeout(late);
}
