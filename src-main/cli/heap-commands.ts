/**
 * `gcscope heap FILE|--snapshot ID [--by type|dominators] [--path TYPE] [--diff FILE|--snapshot ID]
 * [--top N] [--format text|json]` and `gcscope snapshot --pid N [--out FILE.gcdump] [--name TEXT]`
 * (issue 38): what is on the heap and who holds it.
 *
 * A snapshot is a .gcdump (dotnet-gcdump, PerfView, Visual Studio, GCScope), a .nettrace recorded
 * with the heap-dump keywords, or a stored session of kind 'heap'. With a second snapshot
 * (`--diff`, or a second `--snapshot`) every type carries its deltas, second minus first.
 */
import { analyzeHeap, findTypes, pathsForTypes, topRetainers, type HeapAnalysis, type NodeView, type Retainer, type TypeRow } from '../heap/analysis.js';
import { diffTypes, type TypeDiffRow } from '../heap/diff.js';
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { DiagnosticsError } from '../diagnostics/transport.js';
import { IpcError } from '../diagnostics/ipc-codec.js';
import { HeapWalkError } from '../heap/errors.js';
import { moduleFileName } from '../heap/type-names.js';
import { loadSnapshotFile, takeSnapshot, type LoadedSnapshot } from '../recording/heap-snapshot.js';
import { escapeControl, formatInt } from '../shared/format.js';
import { CliError, describeInputError, EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, jsonReplacer } from './output.js';

export interface HeapOptions {
  snapshot?: string[];
  db?: string;
  by?: string;
  path?: string;
  diff?: string;
  top?: string;
  format?: string;
  json?: boolean;
}

interface Source {
  readonly label: string;
  readonly snapshot: LoadedSnapshot;
  /**
   * A stored snapshot's reference count as walked (ΣEdgeCount): its .gcdump also holds the
   * ConditionalWeakTable key → value edges GCScope adds, which a file cannot tell apart.
   */
  readonly references?: number;
}

async function loadFile(file: string): Promise<Source> {
  try {
    return { label: file, snapshot: await loadSnapshotFile(file) };
  } catch (e) {
    if (e instanceof HeapWalkError) throw new CliError(`${file}: ${e.message}`, EXIT_BAD_INPUT);
    throw describeInputError(file, e) ?? e;
  }
}

async function loadSession(id: string, db: string | undefined): Promise<Source> {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`--snapshot needs a session id (a positive number), not "${id}"`, EXIT_BAD_INPUT);
  const [{ openDbForReading }, { getSession }, { getHeapSnapshot }, { StoreError }] = await Promise.all([
    import('./store-commands.js'),
    import('../store/sessions.js'),
    import('../store/heap-snapshots.js'),
    import('../store/db.js'),
  ]);
  const database = await openDbForReading(db);
  let file: string;
  let name: string;
  let references: number;
  try {
    const s = await getSession(database, n);
    if (s.kind !== 'heap') throw new CliError(`session ${n} is a ${s.kind} session, not a heap snapshot (see gcscope sessions)`, EXIT_BAD_INPUT);
    const h = await getHeapSnapshot(database, n);
    file = h.file;
    references = h.references;
    name = s.name;
  } catch (e) {
    if (e instanceof StoreError && e.code === 'not-found') throw new CliError(e.message, EXIT_BAD_INPUT);
    throw e;
  } finally {
    await database.close();
  }
  const loaded = await loadFile(file);
  return { label: `session ${n} (${name})`, snapshot: loaded.snapshot, references };
}

function bytesText(b: number): string {
  if (b >= 1e9) return `${(b / 1e9).toFixed(2)} GB`;
  if (b >= 1e6) return `${(b / 1e6).toFixed(1)} MB`;
  if (b >= 1e3) return `${(b / 1e3).toFixed(1)} kB`;
  return `${b} B`;
}

function signed(v: number): string {
  return v > 0 ? `+${formatInt(v)}` : formatInt(v);
}

function typeJson(t: TypeRow): object {
  return { name: t.name, fullName: t.fullName, module: moduleFileName(t.module), count: t.count, bytes: t.bytes, retainedBytes: t.retainedBytes };
}

function nodeJson(n: NodeView): object {
  return { name: n.name, bytes: n.bytes, retainedBytes: n.retainedBytes, ...(n.address !== undefined ? { address: n.address } : {}) };
}

function retainerJson(r: Retainer): object {
  return { ...nodeJson(r), children: r.children.map(retainerJson) };
}

function sourceJson(s: Source, a: HeapAnalysis): object {
  const g = s.snapshot.gcdump;
  return {
    source: s.label,
    format: s.snapshot.format,
    objects: a.totals.objects,
    bytes: a.totals.bytes,
    references: s.references ?? a.totals.references,
    unreachableObjects: a.totals.unreachable,
    untypedObjects: s.snapshot.untypedObjects,
    ...(g !== undefined
      ? { creationTool: g.creationTool ?? null, processId: g.processId ?? null, processName: g.processName ?? null, sampled: g.countMultiplier !== 1 }
      : {}),
  };
}

export async function runHeap(file: string | undefined, opts: HeapOptions): Promise<number> {
  const by = opts.by ?? 'type';
  if (by !== 'type' && by !== 'dominators') throw new CliError(`unknown --by ${by}: use type or dominators`, EXIT_BAD_INPUT);
  const format = opts.json === true ? 'json' : (opts.format ?? 'text');
  if (format !== 'text' && format !== 'json') throw new CliError(`unknown --format ${format}: use text or json`, EXIT_BAD_INPUT);
  const top = opts.top === undefined ? (format === 'json' ? Infinity : 30) : Number(opts.top);
  if (!(top > 0) || (Number.isFinite(top) && !Number.isInteger(top)))
    throw new CliError(`--top needs a positive whole number, not "${opts.top}"`, EXIT_BAD_INPUT);
  // Sources in order: FILE, then each --snapshot; --diff FILE adds the second.
  const snapshots = opts.snapshot ?? [];
  const count = (file !== undefined ? 1 : 0) + snapshots.length + (opts.diff !== undefined ? 1 : 0);
  if (file === undefined && snapshots.length === 0) throw new CliError('give a snapshot FILE (.gcdump or .nettrace) or --snapshot ID', EXIT_BAD_INPUT);
  if (count > 2)
    throw new CliError('give at most two snapshots: the first, and the second to diff against it (--diff FILE or a second --snapshot)', EXIT_BAD_INPUT);
  const loaders: (() => Promise<Source>)[] = [];
  if (file !== undefined) loaders.push(() => loadFile(file));
  for (const id of snapshots) loaders.push(() => loadSession(id, opts.db));
  if (opts.diff !== undefined) loaders.push(() => loadFile(opts.diff!));
  const first = await loaders[0]!();
  const firstAnalysis = analyzeHeap(first.snapshot.graph);
  let second: { source: Source; analysis: HeapAnalysis } | undefined;
  if (loaders.length === 2) {
    const s = await loaders[1]!();
    second = { source: s, analysis: analyzeHeap(s.snapshot.graph) };
  }
  // The view is of the second snapshot when there is one (its types carry the deltas).
  const main = second ?? { source: first, analysis: firstAnalysis };
  const a = main.analysis;
  const diff: TypeDiffRow[] | undefined = second !== undefined ? diffTypes(firstAnalysis.types, second.analysis.types) : undefined;
  let paths: ReturnType<typeof pathsForTypes> | undefined;
  let pathTypes: TypeRow[] = [];
  if (opts.path !== undefined) {
    pathTypes = findTypes(a, opts.path);
    if (pathTypes.length === 0)
      throw new CliError(`no type named "${opts.path}" in ${main.source.label} (gcscope heap … --top 50 lists the types)`, EXIT_BAD_INPUT);
    paths = pathsForTypes(
      a,
      pathTypes.map((t) => t.type),
      Number.isFinite(top) ? top : 10,
    );
  }
  const dominators = by === 'dominators' ? topRetainers(a, Number.isFinite(top) ? top : 50) : undefined;
  const limit = <T>(xs: readonly T[]): T[] => (Number.isFinite(top) ? xs.slice(0, top) : [...xs]);

  if (format === 'json') {
    const out = {
      ...sourceJson(main.source, a),
      ...(second !== undefined
        ? {
            first: sourceJson(first, firstAnalysis),
            objectsDelta: a.totals.objects - firstAnalysis.totals.objects,
            bytesDelta: a.totals.bytes - firstAnalysis.totals.bytes,
            referencesDelta: (main.source.references ?? a.totals.references) - (first.references ?? firstAnalysis.totals.references),
          }
        : {}),
      types:
        diff !== undefined
          ? limit(diff).map((d) => ({
              name: d.name,
              fullName: d.fullName,
              module: moduleFileName(d.module),
              count: d.count,
              bytes: d.bytes,
              retainedBytes: d.retainedBytes,
              countDelta: d.countDelta,
              bytesDelta: d.bytesDelta,
              retainedBytesDelta: d.retainedBytesDelta,
              isNew: d.isNew,
              isGone: d.isGone,
            }))
          : limit(a.types).map(typeJson),
      ...(dominators !== undefined ? { dominators: dominators.map(retainerJson) } : {}),
      ...(paths !== undefined
        ? { pathTypes: pathTypes.map((t) => t.name), paths: paths.map((p) => p.path.map(nodeJson)), pathInstances: paths.map((p) => p.instances) }
        : {}),
    };
    process.stdout.write(JSON.stringify(out, jsonReplacer, 2) + '\n');
    return EXIT_OK;
  }

  const lines: string[] = [];
  const describe = (s: Source, x: HeapAnalysis): string =>
    `${escapeControl(s.label)}: ${formatInt(x.totals.objects)} objects, ${bytesText(x.totals.bytes)} (${formatInt(x.totals.bytes)} bytes), ${formatInt(s.references ?? x.totals.references)} references`;
  if (second !== undefined) {
    lines.push(`first:  ${describe(first, firstAnalysis)}`, `second: ${describe(main.source, a)}`);
    lines.push(`change: ${signed(a.totals.objects - firstAnalysis.totals.objects)} objects, ${signed(a.totals.bytes - firstAnalysis.totals.bytes)} bytes`);
  } else lines.push(describe(main.source, a));
  const notes: string[] = [];
  if (a.totals.unreachable > 0) notes.push(`${formatInt(a.totals.unreachable)} objects no root reaches (frozen literals and runtime types): no retained size`);
  if (main.source.snapshot.untypedObjects > 0)
    notes.push(
      `${formatInt(main.source.snapshot.untypedObjects)} objects have no type name (the runtime names a type only once while another session of the process, such as a recording, keeps type events on, and no earlier walk named them)`,
    );
  if (main.source.snapshot.gcdump !== undefined && main.source.snapshot.gcdump.countMultiplier !== 1)
    notes.push(`this file is sampled (each object stands for ~${main.source.snapshot.gcdump.countMultiplier.toFixed(1)}): counts are of the sample`);
  for (const n of notes) lines.push(`note: ${n}`);
  lines.push('');
  if (dominators !== undefined) {
    lines.push('Biggest retainers (what freeing each would free):', '');
    const walk = (r: Retainer, depth: number): void => {
      lines.push(`${bytesText(r.retainedBytes).padStart(10)}  ${'  '.repeat(depth)}${escapeControl(r.name)}${r.address !== undefined ? ` @${r.address}` : ''}`);
      for (const c of r.children) walk(c, depth + 1);
    };
    for (const r of dominators) walk(r, 0);
  } else if (diff !== undefined) {
    lines.push(`${'Count Δ'.padStart(10)} ${'Bytes Δ'.padStart(14)} ${'Retained Δ'.padStart(14)} ${'Count'.padStart(10)}  Type`);
    for (const d of limit(diff))
      lines.push(
        `${signed(d.countDelta).padStart(10)} ${signed(d.bytesDelta).padStart(14)} ${signed(d.retainedBytesDelta).padStart(14)} ${formatInt(d.count).padStart(10)}  ${escapeControl(d.name)}${d.isNew ? '  (new)' : d.isGone ? '  (gone)' : ''}`,
      );
  } else {
    lines.push(`${'Count'.padStart(10)} ${'Bytes'.padStart(14)} ${'Retained'.padStart(14)}  Type`);
    for (const t of limit(a.types))
      lines.push(`${formatInt(t.count).padStart(10)} ${formatInt(t.bytes).padStart(14)} ${formatInt(t.retainedBytes).padStart(14)}  ${escapeControl(t.name)}`);
    if (Number.isFinite(top) && a.types.length > top) lines.push(`… ${formatInt(a.types.length - top)} more types (--top N, or --format json for all)`);
  }
  if (paths !== undefined) {
    lines.push('', `Paths to root for ${pathTypes.map((t) => escapeControl(t.name)).join(', ')}:`);
    for (const p of paths) {
      lines.push('', `${formatInt(p.instances)} instance${p.instances === 1 ? '' : 's'} held this way:`);
      if (p.path.length === 0) lines.push('  (no root reaches them)');
      p.path.forEach((n, i) =>
        lines.push(`  ${i === 0 ? '' : '→ '}${escapeControl(n.name)}${i === 0 ? '' : `  (${bytesText(n.bytes)}, retains ${bytesText(n.retainedBytes)})`}`),
      );
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
  return EXIT_OK;
}

export interface SnapshotOptions {
  pid?: string;
  out?: string;
  name?: string;
  db?: string;
  bufferMb?: string;
  trace?: string;
  json?: boolean;
}

export async function runSnapshot(opts: SnapshotOptions): Promise<number> {
  const pid = Number(opts.pid);
  if (opts.pid === undefined || !Number.isInteger(pid) || pid <= 0)
    throw new CliError('give the process to snapshot: --pid N (gcscope ps lists them)', EXIT_BAD_INPUT);
  const bufferMB = opts.bufferMb === undefined ? 1024 : Number(opts.bufferMb);
  if (!Number.isInteger(bufferMB) || bufferMB < 16 || bufferMB > 65536)
    throw new CliError(`--buffer-mb needs a whole number of MB from 16 to 65536, not "${opts.bufferMb}"`, EXIT_BAD_INPUT);
  const json = opts.json === true;
  const say = (s: string): void => {
    if (!json) process.stderr.write(s + '\n');
  };
  const { openDb } = await import('./store-commands.js');
  const db = await openDb(opts.db, { mapped: false });
  try {
    let lastShown = 0;
    const tty = process.stderr.isTTY === true;
    // --trace: the walk's raw events as a .nettrace (`gcscope heap FILE.nettrace` opens it again).
    const raw = opts.trace !== undefined ? createWriteStream(resolve(opts.trace)) : undefined;
    const rawDone = raw !== undefined ? new Promise<void>((res, rej) => raw.once('close', () => res()).once('error', rej)) : Promise.resolve();
    const {
      sessionId,
      file: out,
      snapshot: snap,
      analysis: a,
      heapAtLastGc: heapBefore,
      timings,
    } = await takeSnapshot(db, pid, {
      bufferMB,
      ...(raw !== undefined ? { onRawChunk: (c: Buffer) => raw.write(c) } : {}),
      ...(opts.out !== undefined ? { out: opts.out } : {}),
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      beforePause: (heap) =>
        say(
          heap !== undefined
            ? `process ${pid}: its heap was ${bytesText(heap)} at its last GC; a blocking gen2 GC now walks it (the process pauses meanwhile, about 0.2 s per 100 MB)`
            : `process ${pid}: a blocking gen2 GC now walks its heap (the process pauses meanwhile; its size at the last GC is unknown: its runtime counters did not answer)`,
        ),
      onProgress: (p) => {
        if (json) return;
        const now = Date.now();
        if (!p.complete && now - lastShown < (tty ? 200 : 1000)) return;
        lastShown = now;
        const line = `walking the heap: ${formatInt(p.objects)} objects, ${bytesText(p.bytes)}${p.complete ? ' — done' : ''}`;
        if (tty) process.stderr.write(`\r${line}${p.complete ? '\n' : ''}`);
        else process.stderr.write(line + '\n');
      },
      onPhase: (phase) => say(phase === 'building' ? 'building the graph…' : phase === 'analysing' ? 'dominators and retained sizes…' : 'writing the .gcdump…'),
    });
    raw?.end();
    await rawDone;
    if (json) {
      process.stdout.write(
        JSON.stringify({
          session: sessionId,
          file: out,
          processId: snap.processId,
          processName: snap.processName,
          heapAtLastGcBytes: heapBefore ?? null,
          gcNumber: snap.gcNumber,
          objects: a.totals.objects,
          bytes: a.totals.bytes,
          references: a.totals.references,
          untypedObjects: snap.untypedObjects,
          walkMs: snap.walkMs,
          // Why the walk's session stopped: 'walk-ended' (its GCEnd seen as it arrived) or
          // 'walk-complete'; 'timeout' means the walk's end did not come within the capture's timeout.
          stoppedBy: snap.stoppedBy,
          timingsMs: timings,
          types: a.types.slice(0, 10).map(typeJson),
        }) + '\n',
      );
    } else {
      const lines = [
        `snapshot: session ${sessionId}, ${formatInt(a.totals.objects)} objects, ${bytesText(a.totals.bytes)}, ${formatInt(a.totals.references)} references (GC #${snap.gcNumber})`,
        `file: ${out}`,
        ...(snap.untypedObjects > 0
          ? [
              `note: ${formatInt(snap.untypedObjects)} objects have no type name (the runtime names a type only once while another session of the process, such as a recording, keeps type events on; Snapshot on the recording in the app reuses its earlier snapshots' names)`,
            ]
          : []),
        '',
        `${'Count'.padStart(10)} ${'Bytes'.padStart(14)} ${'Retained'.padStart(14)}  Type`,
        ...a.types
          .slice(0, 10)
          .map(
            (t) => `${formatInt(t.count).padStart(10)} ${formatInt(t.bytes).padStart(14)} ${formatInt(t.retainedBytes).padStart(14)}  ${escapeControl(t.name)}`,
          ),
        '',
        `more: gcscope heap --snapshot ${sessionId} [--by dominators] [--path TYPE]; compare: gcscope heap --snapshot ${sessionId} --snapshot LATER`,
      ];
      process.stdout.write(lines.join('\n') + '\n');
    }
    return EXIT_OK;
  } catch (e) {
    // Lost events or no walk: the graph would be wrong, so none is shown (exit 1, what to change).
    if (e instanceof HeapWalkError) throw new CliError(e.message, EXIT_FAILURE);
    // No such process, not .NET, no diagnostics endpoint: a bad --pid.
    if (e instanceof DiagnosticsError) throw new CliError(e.message, EXIT_BAD_INPUT);
    // The runtime stopped answering (a busy or hung process): say so in one line.
    if (e instanceof IpcError) throw new CliError(`process ${pid}: ${e.message}`, EXIT_FAILURE);
    throw e;
  } finally {
    await db.close();
  }
}
