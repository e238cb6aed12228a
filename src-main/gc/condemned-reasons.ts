/**
 * Why a GC condemned the generation it did (docs/formats.md §3.4; TraceEvent GCCondemnedReasons):
 * CondemnReasons0 packs 2-bit generation numbers — initial requested (bits 0–1), final (2–3),
 * generation whose budget was exceeded (4–5), time tuning (6–7) — and CondemnReasons1 is a set
 * of conditions, one bit each.
 */
import { CONDEMN_CONDITIONS } from '../shared/gc-enums.js';

/** Plain-words names of the CondemnReasons1 conditions. */
const CONDITION_TEXT: Record<string, string> = {
  induced_fullgc: 'induced (blocking)',
  expand_fullgc: 'heap expansion needed a full GC',
  high_mem: 'high memory load',
  very_high_mem: 'very high memory load',
  low_ephemeral: 'ephemeral segment low on space',
  low_card: 'internal tuning (card efficiency)',
  eph_high_frag: 'fragmented ephemeral generations',
  max_high_frag: 'fragmented gen2',
  max_high_frag_e: 'fragmented gen1 into gen2',
  max_high_frag_m: 'fragmented gen2 under memory load',
  max_high_frag_vm: 'fragmented gen2 under very high memory load',
  max_gen1: 'gen1 budget exceeded',
  before_oom: 'compacting before an out-of-memory',
  gen2_too_small: 'gen2 too small for a background GC',
  induced_noforce: 'induced (not forced)',
  before_bgc: 'ephemeral GC before a background GC',
  almost_max_alloc: 'almost at the allocation limit',
  avoid_unproductive: 'avoiding an unproductive full GC',
  provisional_mode_induced: 'provisional mode: induced full GC',
  provisional_mode_loh_alloc: 'provisional mode: LOH allocation',
  provisional_mode_gen1: 'provisional mode: gen1',
  limit_before_oom: 'compacting before hitting the hard limit',
  loh_frag_hard_limit: 'LOH fragmentation under a hard limit',
  loh_reclaim_hard_limit: 'LOH reclaim under a hard limit',
  servo_initial: 'BGC tuning: initial',
  servo_ngc: 'BGC tuning: blocking GC',
  servo_bgc: 'BGC tuning: background GC',
  servo_postpone: 'BGC tuning: postponed',
  stress_mix: 'GC stress (mixed)',
  stress: 'GC stress',
  aggressive: 'aggressive (memory-saving) GC',
};

export interface CondemnedReasons {
  initialGeneration: number;
  finalGeneration: number;
  budgetExceededGeneration: number;
  timeTuningGeneration: number;
  conditions: string[];
}

export function decodeCondemnedReasons(reasons0: number, reasons1: number): CondemnedReasons {
  const conditions: string[] = [];
  CONDEMN_CONDITIONS.forEach((name, bit) => {
    if ((reasons1 & (1 << bit)) !== 0) conditions.push(CONDITION_TEXT[name] ?? name);
  });
  return {
    initialGeneration: reasons0 & 3,
    finalGeneration: (reasons0 >> 2) & 3,
    budgetExceededGeneration: (reasons0 >> 4) & 3,
    timeTuningGeneration: (reasons0 >> 6) & 3,
    conditions,
  };
}
