/**
 * The rule table: every rule the diagnosis runs, in the order the explain trace lists them.
 * Adding a rule is one module in rules/ and one line here (the DATAS rules D1–D6 go at the end).
 * Ids are a stable contract (issue 13): scripts, goldens and the app key on them.
 */
import type { Rule } from './rule.js';
import { fullBlockingGcs } from './rules/full-blocking-gcs.js';
import { finalizationCost } from './rules/finalization-cost.js';
import { gen0BudgetPeak } from './rules/gen0-budget-peak.js';
import { gen2FragmentationBgc } from './rules/gen2-fragmentation-bgc.js';
import { growingLiveSet } from './rules/growing-live-set.js';
import { highMemoryLoad } from './rules/high-memory-load.js';
import { highPauseTime } from './rules/high-pause-time.js';
import { inducedGcs } from './rules/induced-gcs.js';
import { lohAllocWait } from './rules/loh-alloc-wait.js';
import { lohTriggeredGen2 } from './rules/loh-triggered-gen2.js';
import { longBgcPause } from './rules/long-bgc-pause.js';
import { longSuspension } from './rules/long-suspension.js';
import { midlifeCrisis } from './rules/midlife-crisis.js';
import { pinningFragmentation } from './rules/pinning-fragmentation.js';
import { promotionSpike } from './rules/promotion-spike.js';
import { randomLongPause } from './rules/random-long-pause.js';
import { requestTailGc } from './rules/request-tail-gc.js';
import { serverHeapImbalance } from './rules/server-heap-imbalance.js';
import { datasAllocWait } from './rules/datas-alloc-wait.js';
import { datasCapped } from './rules/datas-capped.js';
import { datasChangeCost } from './rules/datas-change-cost.js';
import { datasMissingData } from './rules/datas-missing-data.js';
import { datasOscillation } from './rules/datas-oscillation.js';
import { hardLimitHeadroom } from './rules/hard-limit-headroom.js';

export const RULES: readonly Rule[] = [
  longSuspension, // M1
  randomLongPause, // M2
  fullBlockingGcs, // M3
  inducedGcs, // M4
  lohTriggeredGen2, // M5
  lohAllocWait, // M6
  highPauseTime, // M7
  promotionSpike, // M8
  growingLiveSet, // M9
  gen0BudgetPeak, // M10
  pinningFragmentation, // M11
  gen2FragmentationBgc, // M12
  finalizationCost, // M13
  highMemoryLoad, // M14
  serverHeapImbalance, // M15
  longBgcPause, // M16
  midlifeCrisis,
  hardLimitHeadroom, // M14 (headroom)
  requestTailGc, // issue 42: GC share of the slowest requests
  datasOscillation, // D1
  datasCapped, // D2
  datasAllocWait, // D3
  datasChangeCost, // D5
  datasMissingData, // D6
];
