/**
 * `gcscope compare A B`: two recordings (trace files, or stored sessions with --session), or two
 * time ranges of one, side by side with confidence intervals and verdicts (compare/), as text,
 * JSON or HTML. `--fail-if` conditions make it a CI gate: exit 3 when one holds (a significant
 * regression beyond its limit), 4 when none holds but one cannot be decided on the data (too few
 * GCs or time windows on a side); otherwise 0, whatever changed.
 */
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { compareSessions, type CompareInput } from '../compare/comparison.js';
import { evaluateFailIf, FailIfError, parseFailIf, type FailCondition } from '../compare/fail-if.js';
import { reportInputFromFile, reportInputFromSession, type ReportInput } from '../recording/report-source.js';
import { reportDiagnosis } from '../report/model.js';
import { closeRange, findingRefs } from '../service/comparisons.js';
import { renderCompareHtml } from '../report/compare-html.js';
import { renderCompareText } from '../report/compare-text.js';
import { compareRequestLatency } from '../compare/request-latency.js';
import { renderRequestLatencyHtml, renderRequestLatencyText } from '../report/request-latency-compare.js';
import { requestsReport } from '../requests/report.js';
import { columnsFromRecords } from '../shared/gc-column-registry.js';
import { escapeControl } from '../shared/format.js';
import { StoreError } from '../store/db.js';
import { getSession } from '../store/sessions.js';
import { CliError, deferNote, describeInputError, EXIT_BAD_INPUT, EXIT_OK, jsonReplacer } from './output.js';
import { selectTrace, type TraceChoiceOptions } from './trace-choice.js';
import type { TraceSelection } from '../recording/report-source.js';
import { closeDiagnosisRange, parseRange } from './range.js';
import { openDbForReading } from './store-commands.js';

/** A --fail-if condition held: a significant regression beyond its limit. */
export const EXIT_REGRESSION = 3;
/** No --fail-if condition held, but one could not be decided (too little data on a side). */
export const EXIT_UNDECIDED = 4;

export interface CompareOptions {
  session?: string[];
  /** The process of a machine-wide trace file: one for every file, or one per file in order. */
  pid?: string[];
  /** A zip's trace: one for every file, or one per file in order. */
  entry?: string[];
  db?: string;
  rangeA?: string;
  rangeB?: string;
  format?: string;
  json?: boolean;
  out?: string;
  failIf?: string[];
  includeWarmup?: boolean;
  seed?: string;
  threshold?: string;
}

type Source = { kind: 'file'; path: string; choice: TraceChoiceOptions } | { kind: 'session'; id: number };

/** A --range-a/--range-b as the user wrote it: "0 s – 10 s", "30 s – end", "start – 10 s". */
function rangeText(r: { fromMSec: number; toMSec: number }): string {
  const sec = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;
  return `${Number.isFinite(r.fromMSec) ? sec(r.fromMSec) : 'start'} – ${Number.isFinite(r.toMSec) ? sec(r.toMSec) : 'end'}`;
}

/** A recording as `report` reads it (file or session): its GCs and facts, its name, its session id. */
interface LoadedSource {
  input: ReportInput;
  name: string;
  sessionId: number | null;
}

async function loadSource(src: Source, db: string | undefined): Promise<LoadedSource> {
  let input: ReportInput;
  let name: string;
  let sessionId: number | null = null;
  if (src.kind === 'file') {
    let selection: TraceSelection;
    try {
      // Comparisons read GC columns only: no call stacks.
      selection = await selectTrace(src.path, src.choice);
      input = await reportInputFromFile(src.path, undefined, { stacks: false, ...selection });
    } catch (e) {
      throw describeInputError(src.path, e) ?? e;
    }
    // Said with the other side's notes in one line (output.ts deferNote).
    if (input.src.truncated) deferNote(`${src.path}: ${input.src.statusReason ?? 'the trace ends early'}; comparing what was read`);
    // Two processes of one machine-wide trace are told apart by their PIDs.
    name = selection.processId !== undefined ? `${basename(src.path)} PID ${selection.processId}` : basename(src.path);
  } else {
    const d = await openDbForReading(db);
    try {
      const s = await getSession(d, src.id);
      // As for a file: GC columns only, the session's samples are not read.
      input = await reportInputFromSession(d, s.id, undefined, { stacks: false });
      name = `session ${s.id} (${s.name})`;
      sessionId = s.id;
    } catch (e) {
      if (e instanceof StoreError && e.code === 'not-found') throw new CliError(e.message, EXIT_BAD_INPUT);
      throw e;
    } finally {
      await d.close();
    }
  }
  return { input, name, sessionId };
}

/** One side: its GCs and facts as `report`/`diagnose` read them (file or session), its findings over the compared range. */
function sideOf(loaded: LoadedSource, label: string, range: { fromMSec: number; toMSec: number } | null, asText: string | undefined): CompareInput {
  const { input, name, sessionId } = loaded;
  const columns = input.columns ?? columnsFromRecords(input.gcs);
  // A range that misses the trace altogether is a mistake, as for diagnose (exit 2): it compared
  // "0 of 0 GCs" and exited 0.
  if (range !== null) closeDiagnosisRange(range, asText ?? '', columns, input.src, `--range-${label.toLowerCase()}`);
  // The findings `gcscope diagnose` gives, over the compared range.
  const d = reportDiagnosis(input.src, columns, undefined, closeRange(columns, range) ?? undefined);
  const p = input.src.process;
  return {
    // Two ranges of one recording read the same name: the label says which range.
    label: `${label}: ${name}${range === null ? '' : `, ${rangeText(range)}`}`,
    sessionId,
    source: input.src.trace.source,
    processName: p.name,
    runtimeVersion: p.runtimeVersion,
    gcMode: p.gcMode,
    concurrent: p.concurrent,
    heapCount: p.heapCount,
    cpuCount: input.src.trace.cpuCount,
    columns,
    range,
    findings: findingRefs(d.findings),
  };
}

export async function runCompare(files: string[], opts: CompareOptions): Promise<number> {
  const format = opts.json === true ? 'json' : (opts.format ?? 'text');
  if (!['text', 'json', 'html'].includes(format)) throw new CliError(`unknown --format ${format}: use text, json or html`, EXIT_BAD_INPUT);
  const pids = opts.pid ?? [];
  const entries = opts.entry ?? [];
  for (const [list, name] of [
    [pids, '--pid'],
    [entries, '--entry'],
  ] as const)
    if (list.length > Math.max(1, files.length))
      throw new CliError(
        `${name} given ${list.length} times for ${files.length} trace file${files.length === 1 ? '' : 's'}: give it once (for every file) or once per file, in order`,
        EXIT_BAD_INPUT,
      );
  // One --pid/--entry is every file's; two are the files' in order.
  const pick = (list: readonly string[], i: number): string | undefined => (list.length === 1 ? list[0] : list[i]);
  const sources: Source[] = files.map((path, i) => {
    const pid = pick(pids, i);
    const entry = pick(entries, i);
    return { kind: 'file', path, choice: { ...(pid !== undefined ? { pid } : {}), ...(entry !== undefined ? { entry } : {}) } };
  });
  if (files.length === 0 && (pids.length > 0 || entries.length > 0))
    throw new CliError(
      `${pids.length > 0 ? '--pid' : '--entry'} chooses what to read of a trace FILE; a stored session is one process already`,
      EXIT_BAD_INPUT,
    );
  for (const s of opts.session ?? []) {
    const id = Number(s);
    if (!Number.isInteger(id) || id <= 0) throw new CliError(`--session needs a session id (a positive number), not "${s}"`, EXIT_BAD_INPUT);
    sources.push({ kind: 'session', id });
  }
  const rangeA = parseRange(opts.rangeA, '--range-a');
  const rangeB = parseRange(opts.rangeB, '--range-b');
  // One recording and two ranges: compare the ranges of that recording.
  if (sources.length === 1 && rangeA !== null && rangeB !== null) sources.push(sources[0]!);
  if (sources.length !== 2)
    throw new CliError('give two recordings to compare: two trace files, two --session IDs, one of each, or one with --range-a and --range-b', EXIT_BAD_INPUT);
  let seed = 1;
  if (opts.seed !== undefined) {
    seed = Number(opts.seed);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new CliError(`--seed needs a whole number from 0 to 4294967295, not "${opts.seed}"`, EXIT_BAD_INPUT);
  }
  let relativeThreshold: number | undefined;
  if (opts.threshold !== undefined) {
    const t = Number(opts.threshold.replace(/%$/, ''));
    if (!(t >= 0 && t < 100)) throw new CliError(`--threshold needs a percentage from 0 to 100, such as 5%, not "${opts.threshold}"`, EXIT_BAD_INPUT);
    relativeThreshold = t / 100;
  }
  // Two ranges of one recording read it once (a 1.1 GB trace took 4-5 s a reading).
  const loadedA = await loadSource(sources[0]!, opts.db);
  const loadedB = sameSource(sources[0]!, sources[1]!) ? loadedA : await loadSource(sources[1]!, opts.db);
  const a = sideOf(loadedA, 'A', rangeA, opts.rangeA);
  const b = sideOf(loadedB, 'B', rangeB, opts.rangeB);
  const c = compareSessions(a, b, { includeWarmup: opts.includeWarmup === true, seed, ...(relativeThreshold !== undefined ? { relativeThreshold } : {}) });
  let conditions: FailCondition[];
  try {
    conditions = (opts.failIf ?? []).map((t) =>
      parseFailIf(
        t,
        c.metrics.map((m) => m.id),
      ),
    );
  } catch (e) {
    if (e instanceof FailIfError) throw new CliError(e.message, EXIT_BAD_INPUT);
    throw e;
  }
  const results = conditions.map((cond) => evaluateFailIf(c, cond));
  // Request latency beside the GC metrics (issue 42): each side's requests started in its range.
  const requestsOf = (l: LoadedSource, range: { fromMSec: number; toMSec: number } | null) =>
    l.input.src.requests === undefined ? null : requestsReport(l.input.src.requests.spans, l.input.src.requests.pauses, { range });
  const rq = compareRequestLatency(requestsOf(loadedA, rangeA), requestsOf(loadedB, rangeB), { seed });
  const text =
    format === 'json'
      ? JSON.stringify({ ...c, requests: rq, failIf: results }, jsonReplacer, 2) + '\n'
      : format === 'html'
        ? renderCompareHtml(c).replace('</body>', `${renderRequestLatencyHtml(rq)}</body>`)
        : renderCompareText(c) + renderRequestLatencyText(rq);
  if (opts.out !== undefined) {
    writeFileSync(opts.out, text);
    process.stderr.write(`wrote ${opts.out}\n`);
  } else process.stdout.write(text);
  for (const r of results)
    process.stderr.write(
      `gcscope: --fail-if "${escapeControl(r.condition.text)}": ${r.failed ? 'FAILED' : r.undecided ? 'UNDECIDED' : 'passed'} — ${escapeControl(r.reason)}\n`,
    );
  return results.some((r) => r.failed) ? EXIT_REGRESSION : results.some((r) => r.undecided) ? EXIT_UNDECIDED : EXIT_OK;
}

function sameSource(x: Source, y: Source): boolean {
  return x.kind === 'file'
    ? y.kind === 'file' && x.path === y.path && x.choice.pid === y.choice.pid && x.choice.entry === y.choice.entry
    : y.kind === 'session' && x.id === y.id;
}
