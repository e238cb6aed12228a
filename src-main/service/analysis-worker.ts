/**
 * Worker-thread entry for the session view's heavy analyses: the findings (getFindings; 100,000
 * GCs take about a second of CPU) and the comparison of two sessions (compareSessions; seconds of
 * bootstrap resampling for 100,000 GCs a side). On the service thread they held back every other
 * answer and, while recording, the live batches. The worker holds the last few column sets it was
 * sent for diagnoses (a finished session's columns do not change: a new range or threshold
 * re-sends only the facts).
 */
import { parentPort } from 'node:worker_threads';
import { compareSessions, type CompareInput } from '../compare/comparison.js';
import { diagnose } from '../diagnosis/diagnose.js';
import type { DiagnosisFacts } from '../diagnosis/rule.js';
import type { ComparisonOptions } from '../shared/comparison.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import type { DiagnosisOverrides } from '../shared/finding.js';
import { withUnpackedRequests, type PackedRequests } from '../requests/packed-spans.js';
import { runInBackground } from './thread-priority.js';

export interface DiagnoseRequest {
  kind: 'diagnose';
  id: number;
  /** Which column set: sent with `columns` the first time, by key alone after. */
  key: string;
  columns?: GcColumns;
  /** Keys the worker may forget (the service's own record of what the worker holds). */
  drop: string[];
  /** The facts without their request spans, which cross as columns (`requests`). */
  facts: Omit<DiagnosisFacts, 'requests'>;
  requests?: PackedRequests;
  overrides: DiagnosisOverrides;
  range?: { fromMSec: number; toMSec: number };
}

export interface CompareRequest {
  kind: 'compare';
  id: number;
  a: CompareInput;
  b: CompareInput;
  options: Partial<ComparisonOptions>;
}

export type AnalysisRequest = DiagnoseRequest | CompareRequest;
export type AnalysisReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

const held = new Map<string, GcColumns>();

function answer(r: AnalysisRequest): AnalysisReply {
  try {
    if (r.kind === 'compare') return { id: r.id, ok: true, value: compareSessions(r.a, r.b, r.options) };
    for (const k of r.drop) held.delete(k);
    if (r.columns !== undefined) held.set(r.key, r.columns);
    const columns = held.get(r.key);
    if (columns === undefined) return { id: r.id, ok: false, message: `columns ${r.key} are not held` };
    return {
      id: r.id,
      ok: true,
      value: diagnose(columns, withUnpackedRequests(r.facts, r.requests), { overrides: r.overrides, ...(r.range !== undefined ? { range: r.range } : {}) }),
    };
  } catch (e) {
    return { id: r.id, ok: false, message: (e as Error).message };
  }
}

// The page and the service's thread come first (thread-priority.ts).
if (parentPort !== null) runInBackground();
parentPort?.on('message', (r: AnalysisRequest) => parentPort!.postMessage(answer(r)));
