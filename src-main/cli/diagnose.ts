/**
 * `gcscope diagnose FILE|--session ID [--set rule.setting=value …] [--explain] [--format text|json]`:
 * the findings of a trace or a stored session (docs/diagnosis.md). Exit 3 when a finding is a
 * warning, 0 otherwise — so it can gate a CI job — and 2 on bad input (an unknown setting
 * included). A trace that could only be read in part is diagnosed as far as it goes, said on
 * stderr, and exits 2 unless a warning makes it 3.
 */
import { writeFileSync } from 'node:fs';
import { hasWarning } from '../diagnosis/diagnose.js';
import { DiagnosisSettingsError, parseOverrides } from '../diagnosis/settings.js';
import { findingLines } from '../report/findings-text.js';
import { reportDiagnosis } from '../report/model.js';
import { columnsFromRecords } from '../shared/gc-column-registry.js';
import { formatCount, formatMs } from '../shared/format.js';
import { CliError, escapeControl, EXIT_BAD_INPUT, EXIT_OK } from './output.js';
import { inputProblem, loadReportInput } from './store-commands.js';

export const EXIT_WARNING = 3;

export interface DiagnoseOptions {
  session?: string;
  db?: string;
  set?: string[];
  explain?: boolean;
  format?: string;
  json?: boolean;
  out?: string;
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
  const { src, gcs } = await loadReportInput(file, opts);
  const d = reportDiagnosis(src, columnsFromRecords(gcs), overrides);
  let text: string;
  if (format === 'json') {
    const { explain, ...rest } = d;
    text = JSON.stringify({ source: src.trace.source, ...rest, ...(opts.explain === true ? { explain } : {}), settings: overrides }, null, 2) + '\n';
  } else {
    const span = src.firstEventMSec !== null && src.lastEventMSec !== null ? `, ${formatMs(src.lastEventMSec - src.firstEventMSec)} of events` : '';
    const head = `GCScope diagnosis — ${escapeControl(src.trace.source ?? 'session')} (${formatCount(d.range.gcCount, 'completed GC')}${span})`;
    const set = Object.keys(overrides).length > 0 ? [`Settings    ${Object.entries(overrides).map(([k, v]) => `${k}=${v}`).join(', ')}`] : [];
    text = [head, ...set, '', ...findingLines(d, { explain: opts.explain === true })].join('\n') + '\n';
  }
  if (opts.out !== undefined) {
    writeFileSync(opts.out, text);
    process.stderr.write(`wrote ${opts.out}\n`);
  } else process.stdout.write(text);
  const input = inputProblem(file, { quality: { truncated: src.truncated, statusReason: src.statusReason } });
  if (hasWarning(d)) return EXIT_WARNING;
  return input !== EXIT_OK ? input : EXIT_OK;
}
