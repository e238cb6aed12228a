/**
 * `gcscope allocs FILE|--session ID [--by type|stack] [--direction bottom-up|top-down]
 * [--kind small|large|pinned] [--search TEXT] [--range FROM:TO] [--json]`: who allocates what
 * (issue 14), from GC/AllocationTick samples and their call stacks.
 *
 * By type: sampled bytes per type and heap kind, with the large-object (LOH) types and the stacks
 * allocating them. By stack: a call tree (bottom-up by default: the allocating method first, its
 * callers below; top-down: from the thread's outermost frame), weighted by sampled bytes.
 */
import { basename } from 'node:path';
import { analyzeTraceFile } from '../recording/analyze-file.js';
import { ALLOCATION_KIND_NAMES, type AllocationKindName, type CallTreeNode } from '../shared/allocations.js';
import { escapeControl, formatCount, formatInt, formatMB, formatPercent } from '../shared/format.js';
import { allocationCallTree, allocationsSummary, FrameNames, handleStacks, topAllocationStacks, type MsecRange } from '../symbols/allocations.js';
import type { StackData, StackEvents } from '../symbols/stack-events.js';
import { CliError, describeInputError, EXIT_BAD_INPUT, EXIT_OK, jsonReplacer } from './output.js';
import { selectTrace, type TraceChoiceOptions } from './trace-choice.js';
import { parseRange } from './range.js';

export interface AllocsOptions extends TraceChoiceOptions {
  session?: string;
  db?: string;
  by?: string;
  direction?: string;
  kind?: string;
  search?: string;
  range?: string;
  depth?: string;
  json?: boolean;
}

async function loadData(
  file: string | undefined,
  opts: AllocsOptions,
): Promise<{ data: StackData; events?: StackEvents; source: string; note: string | null }> {
  if ((file === undefined) === (opts.session === undefined)) throw new CliError('give a trace FILE or --session ID (one of them)', EXIT_BAD_INPUT);
  if (file === undefined && (opts.pid !== undefined || opts.entry !== undefined))
    throw new CliError(
      `${opts.pid !== undefined ? '--pid' : '--entry'} chooses what to read of a trace FILE; a stored session is one process already`,
      EXIT_BAD_INPUT,
    );
  if (file !== undefined) {
    try {
      const selection = await selectTrace(file, opts);
      // Without --range the samples are summed per stack, type and kind as they are read (as
      // for a session, and as `report` does): kept one by one, a 1.1 GB gc-verbose trace's
      // 12 M samples took `allocs` to 1.8 GB. No GC is used here, so the analysis keeps only the
      // few its metrics read (every TraceGC held was another ~180 MB for 38,932 GCs).
      const a = await analyzeTraceFile(file, { stacks: true, window: 8, stackOptions: { handles: true, aggregate: opts.range === undefined }, ...selection });
      return {
        data: a.stackEvents!,
        events: a.stackEvents!,
        source: file,
        note: a.failure !== undefined ? `the trace ends early (${a.failure.message}); what was read is shown` : null,
      };
    } catch (e) {
      throw describeInputError(file, e) ?? e;
    }
  }
  const id = Number(opts.session);
  if (!Number.isInteger(id) || id <= 0) throw new CliError(`--session needs a session id (a positive number), not "${opts.session}"`, EXIT_BAD_INPUT);
  // Loaded only for --session: a trace file never needs sqlite3's binding.
  const [{ openDbForReading }, { loadStackData }, { getSession }, { StoreError }, { requireGcSession }] = await Promise.all([
    import('./store-commands.js'),
    import('../store/stack-store.js'),
    import('../store/sessions.js'),
    import('../store/db.js'),
    import('../shared/session.js'),
  ]);
  const db = await openDbForReading(opts.db);
  try {
    // Allocation samples belong to GC recordings: another kind is refused in one line (exit 2).
    const s = requireGcSession(await getSession(db, id));
    // Without --range the samples are summed per stack, type and kind as they are read.
    const data = await loadStackData(db, id, { aggregate: opts.range === undefined });
    const note =
      s.status === 'recording' ? 'the session is still recording: methods known only from the rundown at its end show as addresses until it stops' : null;
    return { data, source: `session ${id} (${s.name})`, note };
  } catch (e) {
    if (e instanceof StoreError && e.code === 'not-found') throw new CliError(e.message, EXIT_BAD_INPUT);
    throw e;
  } finally {
    await db.close();
  }
}

function mb(bytes: number): string {
  return formatMB(bytes / 1e6);
}

/** Sampled objects can be a few bytes each. */
function objBytes(b: number): string {
  return b < 1000 ? `${b} B` : mb(b);
}

function treeLines(n: CallTreeNode, total: number, depth: number, maxDepth: number, out: string[]): void {
  for (const c of n.children) {
    if (c.totalBytes < total * 0.005) continue; // under 0.5 %: left out of the text view (the JSON has it all)
    out.push(`${mb(c.totalBytes).padStart(10)} ${formatPercent((100 * c.totalBytes) / total).padStart(7)}  ${'  '.repeat(depth)}${escapeControl(c.name)}`);
    if (depth + 1 < maxDepth) treeLines(c, total, depth + 1, maxDepth, out);
  }
}

export async function runAllocs(file: string | undefined, opts: AllocsOptions): Promise<number> {
  const by = opts.by ?? 'type';
  if (by !== 'type' && by !== 'stack') throw new CliError(`unknown --by ${by}: use type or stack`, EXIT_BAD_INPUT);
  const direction = opts.direction ?? 'bottom-up';
  if (direction !== 'bottom-up' && direction !== 'top-down') throw new CliError(`unknown --direction ${direction}: use bottom-up or top-down`, EXIT_BAD_INPUT);
  if (opts.kind !== undefined && !(ALLOCATION_KIND_NAMES as readonly string[]).includes(opts.kind))
    throw new CliError(`unknown --kind ${opts.kind}: use small, large or pinned`, EXIT_BAD_INPUT);
  const kind = opts.kind as AllocationKindName | undefined;
  const r = parseRange(opts.range, '--range');
  const range: MsecRange | undefined = r === null ? undefined : { from: r.fromMSec, to: r.toMSec };
  const depth = opts.depth === undefined ? 12 : Number(opts.depth);
  if (!Number.isInteger(depth) || depth < 1) throw new CliError(`--depth needs a positive whole number, not "${opts.depth}"`, EXIT_BAD_INPUT);
  const { data, events, source, note } = await loadData(file, opts);
  const summary = allocationsSummary(data, range);
  const names = new FrameNames(data);
  const rangeArg = range !== undefined ? { range } : {};
  const tree =
    by === 'stack'
      ? allocationCallTree(data, names, {
          direction,
          ...rangeArg,
          ...(kind !== undefined ? { kind } : {}),
          ...(opts.search !== undefined ? { search: opts.search } : {}),
        })
      : undefined;
  const largeStacks = topAllocationStacks(data, names, { ...rangeArg, kind: 'large', limit: 5 });
  const byType = kind === undefined ? summary.byType : summary.byType.filter((t) => t.kind === kind);
  // GC handles and pinned objects with their stacks: read from a trace file (sessions do not keep them).
  const pinning = events !== undefined ? handleStacks(events, names, 5) : null;
  if (opts.json === true) {
    const out = {
      source,
      range: r,
      note,
      ...summary,
      byType,
      largeObjectStacks: largeStacks,
      pinningStacks: pinning,
      ...(tree !== undefined ? { direction, callTree: tree } : {}),
    };
    process.stdout.write(JSON.stringify(out, jsonReplacer, 2) + '\n');
    return EXIT_OK;
  }
  const lines: string[] = [];
  lines.push(`GCScope allocations — ${escapeControl(file !== undefined ? basename(file) : source)}${r !== null ? ` (range ${opts.range} s)` : ''}`);
  if (note !== null) lines.push(`Note        ${note}`);
  if (summary.ticks === 0) {
    // A range with no sample in a trace that has them is not a recording problem.
    const anyTicks = range !== undefined && allocationsSummary(data, undefined).ticks > 0;
    lines.push(
      '',
      anyTicks
        ? `No AllocationTick sample in ${opts.range} s; the trace has them elsewhere (the range may be past its end).`
        : 'No GC/AllocationTick events: record with the gc-verbose profile (GC keyword at Verbose) to see allocation by type and stack.',
    );
    process.stdout.write(lines.join('\n') + '\n');
    return EXIT_OK;
  }
  lines.push(
    `Samples     ${formatCount(summary.ticks, 'AllocationTick')} (${formatInt(summary.ticksWithStacks)} with a call stack), ${mb(summary.sampledBytes)} sampled`,
  );
  lines.push(`Sizes       ${summary.sizeNote}`);
  const res = summary.resolution;
  lines.push(
    `Stacks      ${formatInt(res.frames)} distinct frames, ${res.unresolvedFrames === 0 && !(res.moduleFrames! > 0) ? 'all resolved' : [res.moduleFrames! > 0 ? `${formatInt(res.moduleFrames!)} only by module (shown as module!0xRVA)` : '', res.unresolvedFrames > 0 ? `${formatInt(res.unresolvedFrames)} unresolved (shown as ? 0x…)` : ''].filter((x) => x !== '').join(', ')}; methods known: ${formatInt(res.methodsFromLoadEvents)} from load events, ${formatInt(res.methodsFromRundown)} from the rundown`,
  );
  if (res.note !== null) lines.push(`            ${res.note}`);
  lines.push('');
  if (by === 'type') {
    const v4 = summary.sizeSource === 'object-size';
    lines.push(
      `${'type'.padEnd(60)} ${'kind'.padEnd(6)} ${'ticks'.padStart(7)} ${'sampled'.padStart(10)} ${'share'.padStart(7)}${v4 ? ` ${'objects'.padStart(10)}` : ''}`,
    );
    for (const t of byType.slice(0, 40)) {
      const name = escapeControl(t.typeName);
      lines.push(
        `${(name.length > 60 ? name.slice(0, 59) + '…' : name).padEnd(60)} ${t.kind.padEnd(6)} ${formatInt(t.ticks).padStart(7)} ${mb(t.sampledBytes).padStart(10)} ${formatPercent(100 * t.share).padStart(7)}${v4 ? ` ${objBytes(t.objectBytes ?? 0).padStart(10)}` : ''}`,
      );
    }
    if (byType.length > 40) lines.push(`… ${byType.length - 40} more types (--json lists them all)`);
    if (largeStacks.length > 0) {
      lines.push('', 'Large object heap (LOH): the stacks allocating most');
      for (const s of largeStacks) {
        lines.push(`${mb(s.sampledBytes).padStart(10)}  ${formatCount(s.ticks, 'tick')}`);
        for (const f of s.frames.slice(0, depth)) lines.push(`            ${escapeControl(f)}`);
      }
    }
    if (pinning !== null && pinning.length > 0) {
      lines.push('', 'GC handles and pinned objects (GC/SetGCHandle, GC/PinObjectAtGCTime): their stacks');
      for (const p of pinning) {
        lines.push(`${formatCount(p.count, p.event + ' event').padStart(10)}`);
        for (const f of p.frames.slice(0, depth)) lines.push(`            ${escapeControl(f)}`);
        if (p.frames.length === 0) lines.push('            (no stack)');
      }
    }
  } else {
    lines.push(
      `Call tree (${direction}${kind !== undefined ? `, ${kind} objects` : ''}${opts.search !== undefined ? `, stacks through "${escapeControl(opts.search)}"` : ''}): sampled bytes, share`,
    );
    treeLines(tree!, tree!.totalBytes, 0, depth, lines);
  }
  process.stdout.write(lines.join('\n') + '\n');
  return EXIT_OK;
}
