/** `gcscope import`, `report`, `log`, `sessions`, `delete`: the commands that use the session store. */
import { closeSync, existsSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { formatGcLogLine, gcLogEntries } from '../gc/gc-log.js';
import { isFramework, reportHead, type GcReport } from '../report/model.js';
import { DuplicateImportError, importTrace } from '../recording/importer.js';
import { recorderAlive, recoverInterruptedSessions, sessionsToRecover } from '../recording/recovery.js';
import { buildReportOf, reportInputFromFile, reportInputFromSession, reportSourceOfSession, type ReportInput } from '../recording/report-source.js';
import type { ReadProgress } from '../recording/trace-file.js';
import { formatCount, formatInt, formatMB, formatMs } from '../shared/format.js';
import { isKnownSessionKind, requireGcSession, type SessionInfo } from '../shared/session.js';
import { runtimeMajorOf } from '../shared/server-gc.js';
import type { MsecRange } from '../symbols/allocations.js';
import { Database, defaultDatabasePath, StoreError } from '../store/db.js';
import { checkIntegrity } from '../store/integrity.js';
import { MIGRATIONS } from '../store/migrations.js';
import { deleteSession, getSession, listSessions } from '../store/sessions.js';
import { packageRoot } from './package-root.js';
import { CliError, describeInputError, dropNotes, escapeControl, EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, jsonReplacer, sayLine } from './output.js';
import { parsePid, selectTrace, type TraceChoiceOptions } from './trace-choice.js';
import { processesToImport } from '../recording/trace-processes.js';
import { processLabel, type DotNetProcessInfo } from '../shared/trace-process.js';
import { csvReportPieces } from '../report/csv.js';
import { reportJsonPieces } from '../report/json.js';
import { htmlReportPieces } from '../report/html.js';
import { renderSummaryParagraph, renderTextReport } from '../report/text.js';

export async function openDb(path: string | undefined, options: { readonly?: boolean; mapped?: boolean } = {}): Promise<Database> {
  try {
    return await Database.open(path ?? defaultDatabasePath(), options);
  } catch (e) {
    if (e instanceof StoreError) throw new CliError(e.message, e.code === 'newer-schema' ? EXIT_BAD_INPUT : EXIT_FAILURE);
    throw e;
  }
}

/**
 * The database for a command that only reads it, opened read-only: a database the user can only
 * read still lists and reports. Sessions a crash left in 'recording' (their recorder is gone) are
 * recovered first through a short read-write connection; when the file cannot be written they
 * are read as they are, and the commands that show them say so.
 */
export async function openDbForReading(path: string | undefined): Promise<Database> {
  const p = path ?? defaultDatabasePath();
  // A database that does not exist yet is created (empty), as every command always did.
  if (p === ':memory:' || !existsSync(p)) return openDb(p);
  // Not memory-mapped: a command reads a session once, front to back, and every page it
  // touched stayed in its resident memory (a gc-verbose session's samples are ~120 MB of the
  // file). `report --session` of a 1.1 GB trace's session: 318-356 -> ~280 MB, same time.
  let db = await openDb(p, { readonly: true, mapped: false });
  try {
    // Empty (another process is creating it right now) or written by an older GCScope: it needs
    // its migrations, which only a read-write open applies (waiting for the other process's).
    if ((await db.schemaVersion()) < MIGRATIONS.length) {
      await db.close();
      db = await openDb(p, { mapped: false });
    }
    // A damaged database is reported by the command itself (sessions --check says what is wrong).
    const toRecover = await sessionsToRecover(db).catch((e: unknown) => {
      if (e instanceof StoreError && e.code === 'corrupt') return [];
      throw e;
    });
    if (toRecover.length > 0) {
      let rw: Database | undefined;
      try {
        rw = await Database.open(p);
      } catch {
        // Read-only file or folder: the affected sessions are labelled where they are shown.
      }
      if (rw !== undefined) {
        try {
          for (const r of await recoverInterruptedSessions(rw))
            process.stderr.write(`recovered session ${r.sessionId} (${escapeControl(r.name)}): ${escapeControl(r.message)}\n`);
        } finally {
          await rw.close();
        }
      }
    }
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}

/** A note on stderr when a stored session is not a whole, finished recording. */
function labelPartialSession(s: SessionInfo): void {
  if (s.status === 'complete') return;
  const why = s.statusReason !== null ? `: ${s.statusReason}` : '';
  const what =
    s.status === 'recording'
      ? recorderAlive(s)
        ? `is still being recorded (by process ${s.recorderPid}); this shows the GCs stored so far`
        : 'was cut off (its recorder is gone) and could not be recovered because the database is read-only; this shows only the GCs stored before that'
      : `is ${s.status}${why}; this shows only what was stored`;
  process.stderr.write(`gcscope: note: session ${s.id} (${escapeControl(s.name)}) ${escapeControl(what)}\n`);
}

/** A progress bar on stderr when it is a terminal; nothing otherwise. */
function progressBar(label: string): { update: (p: ReadProgress) => void; done: () => void } {
  const tty = process.stderr.isTTY === true;
  let last = -1;
  return {
    update: (p) => {
      if (!tty || p.fileSize === 0) return;
      const pct = Math.floor((p.fileBytes / p.fileSize) * 100);
      if (pct === last) return;
      last = pct;
      const w = 30;
      const filled = Math.round((pct / 100) * w);
      process.stderr.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(w - filled)}] ${String(pct).padStart(3)}%  ${formatMB(p.fileBytes / 1e6)} of ${formatMB(p.fileSize / 1e6)}`,
      );
    },
    done: () => {
      if (tty && last >= 0) process.stderr.write('\r\x1b[K');
    },
  };
}

export async function runImport(file: string, opts: { db?: string; force?: boolean; name?: string; json?: boolean } & TraceChoiceOptions): Promise<number> {
  const pid = parsePid(opts.pid);
  // A machine-wide trace: one session per .NET process with GCs (or the --pid one), each a pass
  // over the file reading that process's events. Surveyed before the database is touched.
  const plan = await processesToImport(file, pid, opts.entry !== undefined ? { entry: opts.entry } : {}).catch((e: unknown) => {
    throw describeInputError(file, e) ?? e;
  });
  const targets: (DotNetProcessInfo | undefined)[] = plan.machineWide ? plan.chosen : [undefined];
  const db = await openDb(opts.db, { mapped: false });
  const results: object[] = [];
  const problems: { label: string | undefined; what: string }[] = [];
  let code = EXIT_OK;
  try {
    for (const target of targets) {
      const label = target !== undefined ? processLabel(target) : undefined;
      const name = label === undefined ? opts.name : opts.name !== undefined ? (targets.length > 1 ? `${opts.name}: ${label}` : opts.name) : label;
      const bar = progressBar(`importing ${basename(file)}${label !== undefined ? ` ${label}` : ''}`);
      try {
        // GC rows are written by a second thread (the bundled store/write-worker.ts) when the bundle has it.
        const writer = join(packageRoot(), 'dist', 'write-worker.mjs');
        const r = await importTrace(db, file, {
          force: opts.force === true,
          ...(name !== undefined ? { name } : {}),
          ...(target !== undefined ? { processId: target.processId } : {}),
          ...(opts.entry !== undefined ? { entry: opts.entry } : {}),
          onProgress: bar.update,
          ...(existsSync(writer) ? { writeWorkerScript: writer } : {}),
        });
        bar.done();
        // The summary of what was just stored, from the columns the import held (not read back).
        const rep = reportHead(reportSourceOfSession(await getSession(db, r.sessionId)), r.columns, {
          gcCount: r.gcCount,
          anyCommittedUsage: r.anyCommittedUsage,
        });
        const out = { sessionId: r.sessionId, status: r.status, statusReason: r.statusReason, summary: rep.summary, quality: rep.quality };
        if (target !== undefined) Object.assign(out, { processId: target.processId, processName: target.name });
        results.push(out);
        if (opts.json !== true) {
          process.stdout.write(
            `Stored session ${r.sessionId}${label !== undefined ? ` of ${escapeControl(label)}` : ''} (${r.status}${r.statusReason !== null ? `: ${r.statusReason}` : ''}) in ${db.path}\n`,
          );
          process.stdout.write(renderSummaryParagraph(rep) + '\n');
        }
        if (r.status !== 'complete') {
          problems.push({ label, what: `stored as ${r.status}: ${r.statusReason ?? 'the trace ends early'}` });
          code = EXIT_BAD_INPUT;
        }
      } catch (e) {
        bar.done();
        if (e instanceof DuplicateImportError) throw new CliError(`${file}${label !== undefined ? ` (${label})` : ''}: ${e.message}`, EXIT_BAD_INPUT);
        const ie = describeInputError(file, e);
        if (ie !== undefined) throw ie;
        throw e;
      }
    }
    if (problems.length > 0) {
      // The summary went to stdout; the problem with the input goes to stderr, as every error does,
      // in one line: each process of a machine-wide trace is read from the same damaged file.
      const same = problems.every((p) => p.what === problems[0]!.what);
      const text =
        problems.length === 1 || same
          ? `${file}: ${problems.length > 1 ? `${problems.length} sessions ` : ''}${problems[0]!.what}`
          : `${file}: ${problems.map((p) => `${p.label ?? 'session'} ${p.what}`).join('; ')}`;
      process.stderr.write(`gcscope: ${escapeControl(text)}\n`);
    }
    // One process: the session's object, as before; a machine-wide trace: every session stored.
    if (opts.json === true) process.stdout.write(JSON.stringify(plan.machineWide ? { sessions: results } : results[0], jsonReplacer, 2) + '\n');
    return code;
  } finally {
    await db.close();
  }
}

export type ReportFormat = 'text' | 'json' | 'csv' | 'html';

/** The report of a trace FILE or of a stored session (--session ID), for report and log. */
async function loadReport(file: string | undefined, opts: { session?: string; db?: string; stacks?: boolean } & TraceChoiceOptions): Promise<GcReport> {
  return buildReportOf(await loadReportInput(file, opts));
}

/**
 * The analysed GCs of a trace FILE or of a stored session (--session ID) and what their source
 * says; with `range`, its allocation evidence covers only that time range (`diagnose --range`).
 */
export async function loadReportInput(
  file: string | undefined,
  opts: { session?: string; db?: string; stacks?: boolean } & TraceChoiceOptions,
  range?: MsecRange,
): Promise<ReportInput> {
  if ((file === undefined) === (opts.session === undefined)) throw new CliError('give a trace FILE or --session ID (one of them)', EXIT_BAD_INPUT);
  if (file === undefined && (opts.pid !== undefined || opts.entry !== undefined))
    throw new CliError(
      `${opts.pid !== undefined ? '--pid' : '--entry'} chooses what to read of a trace FILE; a stored session is one process already`,
      EXIT_BAD_INPUT,
    );
  let rep: ReportInput;
  if (file !== undefined) {
    // Which process of a machine-wide trace (and which trace of a zip): a counting pass first.
    const selection = await selectTrace(file, opts).catch((e: unknown) => {
      throw describeInputError(file, e) ?? e;
    });
    const bar = progressBar(`reading ${basename(file)}`);
    try {
      rep = await reportInputFromFile(file, bar.update, { stacks: opts.stacks !== false, ...(range !== undefined ? { range } : {}), ...selection });
    } catch (e) {
      bar.done();
      const ie = describeInputError(file, e);
      if (ie !== undefined) throw ie;
      throw e;
    }
    bar.done();
  } else {
    const id = Number(opts.session);
    if (!Number.isInteger(id) || id <= 0) throw new CliError(`--session needs a session id (a positive number), not "${opts.session}"`, EXIT_BAD_INPUT);
    const db = await openDbForReading(opts.db);
    try {
      // A session of another kind: one line and exit 2 (SessionKindError), before any note on it.
      labelPartialSession(requireGcSession(await getSession(db, id)));
      rep = await reportInputFromSession(db, id, range, { stacks: opts.stacks !== false });
    } catch (e) {
      if (e instanceof StoreError && e.code === 'not-found') throw new CliError(e.message, EXIT_BAD_INPUT);
      throw e;
    } finally {
      await db.close();
    }
  }
  return rep;
}

export async function runReport(
  file: string | undefined,
  opts: { session?: string; db?: string; format?: string; json?: boolean; out?: string; all?: boolean; stacks?: boolean } & TraceChoiceOptions,
): Promise<number> {
  const format = (opts.json === true ? 'json' : (opts.format ?? 'text')) as ReportFormat;
  if (!['text', 'json', 'csv', 'html'].includes(format)) throw new CliError(`unknown --format ${format}: use text, json, csv or html`, EXIT_BAD_INPUT);
  const rep = await loadReport(file, opts);
  if (format === 'json') {
    // Written as it is produced: the JSON of a long trace's GC list is hundreds of MB.
    await writePieces(reportJsonPieces(rep, jsonReplacer), opts.out);
    if (opts.out !== undefined) sayLine(`wrote ${opts.out}`);
    return inputProblem(file, rep);
  }
  if (format === 'html' || format === 'csv') {
    // Written as it is produced, as JSON is; HTML on a terminal goes into a file named after the process.
    const out =
      opts.out ??
      (format === 'html' && process.stdout.isTTY === true ? `gcscope-report-${rep.process.name ?? 'trace'}.html`.replace(/[^\w.-]/g, '_') : undefined);
    await writePieces(format === 'html' ? htmlReportPieces(rep) : csvReportPieces(rep), out);
    if (out !== undefined) sayLine(`wrote ${out}`);
    return inputProblem(file, rep);
  }
  const text = renderTextReport(rep, opts.all === true ? {} : { maxGCs: 1000 });
  if (opts.out !== undefined) {
    writeFileSync(opts.out, text);
    sayLine(`wrote ${opts.out}`);
  } else {
    process.stdout.write(text);
  }
  return inputProblem(file, rep);
}

/** Writes text pieces to a file or stdout in batches of about 1 MB, waiting for stdout to drain. */
async function writePieces(pieces: Iterable<string>, out: string | undefined): Promise<void> {
  const fd = out !== undefined ? openSync(out, 'w') : undefined;
  try {
    let batch: string[] = [];
    let size = 0;
    const emit = async (): Promise<void> => {
      const text = batch.join('');
      batch = [];
      size = 0;
      if (fd !== undefined) writeSync(fd, text);
      else if (!process.stdout.write(text)) await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
    };
    for (const p of pieces) {
      batch.push(p);
      size += p.length;
      if (size >= 1 << 20) await emit();
    }
    await emit();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A trace FILE that could only be read in part: the output above holds what was read; the
 * problem goes to stderr and the exit code is 2 (bad input).
 */
export function inputProblem(file: string | undefined, rep: { quality: { truncated: boolean; statusReason: string | null } }): number {
  if (!rep.quality.truncated || file === undefined) return EXIT_OK;
  // This is the command's one stderr line: the process-choice note is not said besides (diagnose exits 3 here with a warning).
  dropNotes();
  process.stderr.write(`gcscope: ${escapeControl(`${file}: ${rep.quality.statusReason ?? 'the trace ends early'}`)}\n`);
  return EXIT_BAD_INPUT;
}

/** `gcscope log`: one line per GC in pause order (gc/gc-log.ts), or one JSON object per line. */
export async function runLog(
  file: string | undefined,
  opts: { session?: string; db?: string; json?: boolean; out?: string } & TraceChoiceOptions,
): Promise<number> {
  // A GC log has no call stacks: skip reading them.
  const rep = await loadReport(file, { ...opts, stacks: false });
  // The pinned object heap came with .NET 5; a .NET Framework version is 'Framework …' (no major).
  const major = runtimeMajorOf(rep.process.runtimeVersion);
  const hasPoh = !isFramework(rep.process.runtimeVersion) && (major === null || major >= 5);
  const entries = gcLogEntries(rep.gcs, rep.trace.startTimeUtc, hasPoh);
  const lines = opts.json === true ? entries.map((e) => JSON.stringify(e)) : entries.map(formatGcLogLine);
  const text = lines.length > 0 ? lines.join('\n') + '\n' : '';
  if (opts.out !== undefined) {
    writeFileSync(opts.out, text);
    sayLine(`wrote ${opts.out} (${formatCount(entries.length, 'GC')})`);
  } else {
    process.stdout.write(text);
    // (With --out, "wrote FILE (0 GCs)" has said it.)
    if (entries.length === 0 && opts.json !== true && !(rep.quality.truncated && file !== undefined)) sayLine('no garbage collections in this trace');
  }
  return inputProblem(file, rep);
}

/** A session's row of the table; with `kinds`, a Kind column after Status (see runSessions). */
function sessionLine(s: SessionInfo, kinds: boolean): string[] {
  const gc = s.kind === 'gc';
  return [
    String(s.id),
    s.status,
    ...(kinds ? [escapeControl(isKnownSessionKind(s.kind) ? s.kind : `${s.kind} (unknown)`)] : []),
    escapeControl(s.name),
    escapeControl(s.processName ?? ''),
    // A session of another kind has no GCs: blank, not "0" and "n/a".
    gc ? formatInt(s.gcCount) : '',
    gc ? formatMs(s.maxPauseMSec) : '',
    s.gcMode ?? '',
    s.createdAt.replace('T', ' ').slice(0, 19),
  ];
}

export async function runSessions(opts: { db?: string; json?: boolean; check?: boolean }): Promise<number> {
  const db = await openDbForReading(opts.db);
  try {
    let sessions: SessionInfo[];
    try {
      sessions = await listSessions(db);
    } catch (e) {
      // --check on a damaged database: the check's findings are the answer.
      if (opts.check !== true || !(e instanceof StoreError)) throw e;
      const problems = await checkIntegrity(db);
      process.stderr.write(`gcscope: ${escapeControl(`cannot list the sessions of ${db.path}: ${e.message}`)}\n`);
      process.stdout.write(
        opts.json === true
          ? JSON.stringify({ database: db.path, sessions: null, integrity: problems }, null, 2) + '\n'
          : `Integrity check found problems:\n${problems.map((p) => `  ${escapeControl(p)}`).join('\n')}\n`,
      );
      return EXIT_FAILURE;
    }
    // Recovery leaves sessions of other kinds alone (recording/recovery.ts): no note on them.
    for (const s of sessions) if (s.kind === 'gc' && s.status === 'recording' && !recorderAlive(s)) labelPartialSession(s);
    const problems = opts.check === true ? await checkIntegrity(db) : [];
    if (opts.json === true) {
      process.stdout.write(JSON.stringify({ database: db.path, sessions, ...(opts.check === true ? { integrity: problems } : {}) }, null, 2) + '\n');
    } else if (sessions.length === 0) {
      process.stdout.write(`No sessions in ${db.path}. Import a trace with \`gcscope import FILE\` or record one with \`gcscope record --pid N\`.\n`);
    } else {
      // A Kind column only when some session is not a GC recording: a database of GC recordings
      // (every one until now) lists exactly as before.
      const kinds = sessions.some((s) => s.kind !== 'gc');
      const headers = ['ID', 'Status', ...(kinds ? ['Kind'] : []), 'Name', 'Process', 'GCs', 'Max pause', 'GC mode', 'Created (UTC)'];
      const rows = sessions.map((s) => sessionLine(s, kinds));
      const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      const right = kinds ? [0, 5, 6] : [0, 4, 5];
      const line = (c: string[]): string =>
        c
          .map((x, i) => (right.includes(i) ? x.padStart(widths[i]!) : x.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd();
      const unknown = sessions.some((s) => !isKnownSessionKind(s.kind));
      const note = unknown ? ['A kind marked (unknown) was written by a newer GCScope: this version lists such sessions but cannot show them.'] : [];
      process.stdout.write([`Database: ${db.path}`, line(headers), ...rows.map(line), ...note].join('\n') + '\n');
    }
    if (opts.check === true && opts.json !== true) {
      process.stdout.write(problems.length === 0 ? 'Integrity check: ok\n' : `Integrity check found problems:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    }
    return problems.length === 0 ? EXIT_OK : EXIT_FAILURE;
  } finally {
    await db.close();
  }
}

export async function runDelete(id: string, opts: { db?: string; json?: boolean }): Promise<number> {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`delete needs a session id (a positive number), not "${id}"`, EXIT_BAD_INPUT);
  const db = await openDb(opts.db);
  try {
    await deleteSession(db, n);
    process.stdout.write(opts.json === true ? JSON.stringify({ deleted: n }) + '\n' : `Deleted session ${n}.\n`);
    return EXIT_OK;
  } catch (e) {
    if (e instanceof StoreError && e.code === 'not-found') throw new CliError(e.message, EXIT_BAD_INPUT);
    throw e;
  } finally {
    await db.close();
  }
}
