/**
 * `gcscope diagnose FILE|--session ID [--range FROM:TO] [--set rule.setting=value …] [--explain]
 * [--format text|json]`: the findings of a trace or a stored session, or of the GCs whose pause
 * starts in a time range of it (docs/diagnosis.md). Exit 3 when a finding is a
 * warning, 0 otherwise — so it can gate a CI job — and 2 on bad input (an unknown setting
 * included). A trace that could only be read in part is diagnosed as far as it goes, said on
 * stderr, and exits 2 unless a warning makes it 3.
 */
import { writeFileSync } from 'node:fs';
import { hasWarning } from '../diagnosis/diagnose.js';
import { DiagnosisSettingsError, parseOverrides } from '../diagnosis/settings.js';
import { findingLines } from '../report/findings-text.js';
import { reportDiagnosis } from '../report/model.js';
import { withStackEvidence } from '../report/stack-evidence.js';
import { columnsFromRecords } from '../shared/gc-column-registry.js';
import { formatCount, formatMs } from '../shared/format.js';
import { CliError, escapeControl, EXIT_BAD_INPUT, EXIT_OK, sayLine } from './output.js';
import { closeDiagnosisRange, parseRange, seconds } from './range.js';
import { inputProblem, loadReportInput } from './store-commands.js';
import type { TraceChoiceOptions } from './trace-choice.js';

export const EXIT_WARNING = 3;

export interface DiagnoseOptions extends TraceChoiceOptions {
  session?: string;
  db?: string;
  set?: string[];
  explain?: boolean;
  /** FROM:TO in seconds since the trace started (either end may be left out), as `allocs --range`. */
  range?: string;
  format?: string;
  json?: boolean;
  out?: string;
  /** False with --no-stacks. */
  stacks?: boolean;
}

export async function runDiagnose(file: string | undefined, opts: DiagnoseOptions): Promise<number> {
  const format = opts.json === true ? 'json' : (opts.format ?? 'text');
  if (format !== 'text' && format !== 'json') throw new CliError(`unknown --format ${format}: use text or json`, EXIT_BAD_INPUT);
  let overrides;
  try {
    overrides = parseOverrides(opts.set ?? []);
  } catch (e) {
    if (e instanceof DiagnosisSettingsError) throw new CliError(e.message, EXIT_BAD_INPUT);
    throw e;
  }
  const asked = parseRange(opts.range, '--range');
  // The findings' allocation evidence (types, stacks) from the range's samples only.
  const loaded = await loadReportInput(file, opts, asked === null ? undefined : { from: asked.fromMSec, to: asked.toMSec });
  const { src, gcs } = loaded;
  const columns = loaded.columns ?? columnsFromRecords(gcs);
  const range = asked === null ? undefined : closeDiagnosisRange(asked, opts.range!, columns, src);
  const raw = reportDiagnosis(src, columns, overrides, range);
  // Who caused it: callers and allocating stacks, when the trace has them (issue 14).
  const d = { ...raw, findings: withStackEvidence(raw.findings, src.whoCausedIt, src.pinnedTypes) };
  let text: string;
  if (format === 'json') {
    const { explain, ...rest } = d;
    text = JSON.stringify({ source: src.trace.source, ...rest, ...(opts.explain === true ? { explain } : {}), settings: overrides }, null, 2) + '\n';
  } else {
    const span = src.firstEventMSec !== null && src.lastEventMSec !== null ? `, ${formatMs(src.lastEventMSec - src.firstEventMSec)} of events` : '';
    const head = `GCScope diagnosis — ${escapeControl(src.trace.source ?? 'session')} (${formatCount(d.range.gcCount, 'completed GC')}${range !== undefined ? ' in the range' : ''}${span})`;
    const set =
      Object.keys(overrides).length > 0
        ? [
            `Settings    ${Object.entries(overrides)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ')}`,
          ]
        : [];
    const within =
      range !== undefined
        ? [
            `Range       ${seconds(range.fromMSec)} – ${seconds(range.toMSec)} since the trace started (--range ${escapeControl(opts.range!)}): only GCs whose pause starts in it`,
          ]
        : [];
    text = [head, ...within, ...set, '', ...findingLines(d, { explain: opts.explain === true })].join('\n') + '\n';
  }
  if (opts.out !== undefined) {
    writeFileSync(opts.out, text);
    sayLine(`wrote ${opts.out}`);
  } else process.stdout.write(text);
  const input = inputProblem(file, { quality: { truncated: src.truncated, statusReason: src.statusReason } });
  if (hasWarning(d)) return EXIT_WARNING;
  return input !== EXIT_OK ? input : EXIT_OK;
}
