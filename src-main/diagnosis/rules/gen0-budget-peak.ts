/**
 * M10 — large heap: the peak is far above what survives, because the gen0 budget is large
 * (docs/diagnosis.md M10; MEM "Large heap: Peak too large, After fine"). The heap before a GC is
 * what survived plus what gen0 may allocate until the next GC; a budget as big as the live heap
 * doubles the memory the process needs. The finding states the measured ratios (a fixed "about
 * twice" under a title of 38.8× contradicted itself). Information only (fixed score 50).
 */
import { formatFixed, formatMB } from '../../shared/format.js';
import { anyFinite, evidenceOf } from '../gc-set.js';
import { judged, notMeasured, type Rule } from '../rule.js';
import { atLeast, median } from '../stats.js';

export const gen0BudgetPeak: Rule = {
  id: 'gen0-budget-peak',
  name: 'Peak heap set by the gen0 budget',
  source: 'M10 (Maoni Stephens, .NET Memory Performance Analysis: Peak too large, After fine)',
  goal: 'footprint',
  settings: [
    { name: 'peakAfterRatio', default: 2, unit: '×', description: 'median heap peak / heap after the GC' },
    { name: 'budgetAfterRatio', default: 0.5, unit: 'ratio', description: 'median gen0 budget / median heap after' },
  ],
  evaluate({ columns: c, rows, s, facts }) {
    if (!anyFinite(c.budget0, rows)) return notMeasured('the gen0 budget from GCPerHeapHistory events (record with gc-collect or gc-verbose)');
    const ok = rows.filter((i) => c.heapAfter[i]! > 0 && Number.isFinite(c.heapPeak[i]!));
    const ratio = median(ok.map((i) => c.heapPeak[i]! / c.heapAfter[i]!));
    const budget = median(rows.map((i) => c.budget0[i]!));
    const after = median(ok.map((i) => c.heapAfter[i]!));
    const fires = atLeast(ratio, s.peakAfterRatio!) && atLeast(budget, s.budgetAfterRatio! * after);
    const reason = `median peak/after ${Number.isFinite(ratio) ? ratio.toFixed(2) : 'n/a'}× (needs ${s.peakAfterRatio}×), median gen0 budget ${formatMB(budget)} vs median heap after ${formatMB(after)} (needs ${s.budgetAfterRatio}×)`;
    if (!fires) return judged(0, reason);
    const server = facts.gcMode?.startsWith('server') === true;
    const times = (v: number): string => `${formatFixed(v, v >= 10 ? 0 : 1)}×`;
    return judged(50, reason, {
      title: `Heap peaks at ${formatFixed(ratio, 1)}× what survives: a gen0 budget of ${formatMB(budget)} on ${formatMB(after)} of live heap`,
      evidence: evidenceOf(c, ok),
      explanation:
        'Between two GCs the heap grows by the gen0 budget the GC allows, so its peak is what survived plus that budget. ' +
        `Here the median gen0 budget (${formatMB(budget)}) is ${times(budget / after)} the median surviving heap (${formatMB(after)}), and the heap peaks at a median ${formatFixed(ratio, 1)}× what survives: the process needs about ${times(ratio)} the memory its data takes. ` +
        // What sets the budget depends on the GC's flavour (a workstation trace was told about Server GC).
        (server
          ? 'Server GC sets large budgets, one per heap.'
          : facts.gcMode === 'workstation'
            ? "Workstation GC sizes the gen0 budget from the CPU's cache and grows it when much of gen0 survives."
            : "The GC sizes the gen0 budget from the CPU's cache (Server GC: one large budget per heap)."),
      advice: server
        ? 'If memory matters more than GC count: on .NET 8+ use DATAS (System.GC.DynamicAdaptationMode=1), or fewer heaps (GCHeapCount). GCgen0MaxBudget caps the budget, but too small a budget means many more GCs.'
        : 'If memory matters more than GC count, GCgen0MaxBudget caps the budget (DOTNET_GCgen0MaxBudget, in bytes, hexadecimal), but too small a budget means many more GCs: measure the % of time paused before and after.',
    });
  },
};
