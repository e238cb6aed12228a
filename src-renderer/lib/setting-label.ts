/**
 * A rule setting's name as a label on the settings page: "infoMSec" reads "Info at", with its
 * unit (ms) beside the box; "warnPauseShare" reads "Warning pause share"; "dominatedShare" reads
 * "Dominated share". The names stay the keys of
 * the saved overrides and of docs/diagnosis.md; the page showed them raw. Pure, for node tests.
 */

/** Names a word-by-word reading would get wrong. */
const WHOLE: Record<string, string> = {
  highMemPercent: 'High memory load',
  fragPercent: 'Gen0 free space',
  gen0ShareOfHeap: 'Gen0 share of the heap',
  window: 'Window',
  minR2: 'Minimum R²',
  peakAfterRatio: 'Peak / heap after',
  budgetAfterRatio: 'Gen0 budget / heap after',
};

/** Words as read; '' drops a unit word (the unit is shown beside the box). */
const WORDS: Record<string, string> = {
  info: 'info at',
  warn: 'warning at',
  min: 'minimum',
  max: 'maximum',
  m: '',
  msec: '',
  sec: '',
  seconds: 'seconds',
  percent: '',
  per: '',
  mb: '',
  gcs: 'GCs',
  gen2: 'gen2',
  gen0: 'gen0',
  r2: 'R²',
  frag: 'fragmentation',
  mem: 'memory',
};

export function settingLabel(name: string): string {
  const whole = WHOLE[name];
  if (whole !== undefined) return whole;
  // camelCase to words; an acronym (MB, GCs, MSec) and a trailing digit stay with their word.
  const parts = name.match(/[A-Z]+s?(?![a-z])|[A-Z]?[a-z]+\d*|\d+/g) ?? [name];
  const words: string[] = [];
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k]!;
    const lower = p.toLowerCase();
    // "PerMin" is the unit %/min; "WarmUp" is one word.
    if (lower === 'per' && parts[k + 1]?.toLowerCase() === 'min') {
      k++;
      continue;
    }
    if (lower === 'warm' && parts[k + 1]?.toLowerCase() === 'up') {
      words.push('warm-up');
      k++;
      continue;
    }
    const w = WORDS[lower] ?? lower;
    if (w !== '') words.push(w);
  }
  // "Info at" with nothing after it (the unit follows the box), "Info pause share" otherwise.
  if (words.length > 1 && (words[0] === 'info at' || words[0] === 'warning at')) words[0] = words[0].slice(0, -3);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
