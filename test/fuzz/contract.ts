/**
 * The CLI's contract on any input file (issue 40), as the fuzzer and the regression replay judge
 * it: no hang past the time limit, peak RSS under the limit, exit 0 or 2 (or a code the command
 * documents, e.g. diagnose's 3 for a warning finding), at most one stderr line and never a stack
 * trace, an "internal error" or a raw control character.
 */
import { contractProblem } from './cli-fuzz.js';
import type { RunResult } from './pool.js';

export interface Limits {
  hangMs: number;
  rssBytes: number;
}

export const ISSUE_40_LIMITS: Limits = { hangMs: 30_000, rssBytes: 400 * 1024 * 1024 };

export type FailureKind = 'hang' | 'rss' | 'crash' | 'exit' | 'stderr' | 'threw';

export interface Verdict {
  kind: FailureKind;
  detail: string;
}

/** Undefined when the run kept the contract. */
export function verdict(r: RunResult, extraExits: readonly number[], limits: Limits): Verdict | undefined {
  const mb = (b: number): string => `${(b / 1048576).toFixed(0)} MB`;
  if (r.killed === 'hang') return { kind: 'hang', detail: `still running after ${(r.ms / 1000).toFixed(1)} s (killed)` };
  if (r.killed === 'rss-kill') return { kind: 'rss', detail: `RSS reached ${mb(r.peakRss)} (killed)` };
  if (r.killed === 'crash') return { kind: 'crash', detail: `${r.threw ?? 'the worker died'}: ${r.stderr.split('\n').slice(0, 8).join('\n')}` };
  if (r.threw !== undefined) return { kind: 'threw', detail: `main() threw: ${r.threw.split('\n').slice(0, 8).join('\n')}` };
  if (r.peakRss > limits.rssBytes) return { kind: 'rss', detail: `peak RSS ${mb(r.peakRss)} > ${mb(limits.rssBytes)}` };
  const code = extraExits.includes(r.code) ? 0 : r.code;
  if (code !== 0 && code !== 2) return { kind: 'exit', detail: `exit ${r.code}: ${r.stderr.split('\n')[0]}` };
  const p = contractProblem(code, r.stderr);
  if (p !== undefined) return { kind: 'stderr', detail: `${p}: ${r.stderr.slice(0, 600)}` };
  const lines = r.stderr.split('\n').filter((x) => x !== '');
  if (lines.length > 1) return { kind: 'stderr', detail: `exit ${r.code} with ${lines.length} stderr lines: ${r.stderr.slice(0, 600)}` };
  return undefined;
}
