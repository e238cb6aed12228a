/**
 * The Sessions page's order (pure). By default the newest trace first by when it was taken (the
 * trace's own start time; its import or recording time where the trace does not say): the store
 * lists sessions newest added first, so an old trace imported today sat above last week's
 * recordings while the "Taken" column said otherwise. Any column header sorts by that column;
 * sessions without the value go last either way, ties go in the default order, newest taken
 * first (and the other way round when the column is reversed).
 */
import type { SessionInfo } from '../../src-main/shared/session.js';

export type SessionSortKey = 'name' | 'status' | 'gcs' | 'duration' | 'maxPause' | 'paused' | 'gcMode' | 'taken' | 'size';

type Value = number | string | null;

const VALUE: Record<SessionSortKey, (s: SessionInfo) => Value> = {
  name: (s) => s.name.toLowerCase(),
  status: (s) => s.status,
  gcs: (s) => s.gcCount,
  duration: (s) => (s.firstEventMSec === null || s.lastEventMSec === null ? null : s.lastEventMSec - s.firstEventMSec),
  maxPause: (s) => s.maxPauseMSec,
  paused: (s) => s.pauseTimePercentage,
  gcMode: (s) => (s.gcMode === null ? null : `${s.gcMode}${s.concurrent ? ', concurrent' : ''}`),
  taken: (s) => {
    const t = Date.parse(s.traceStartUtc ?? s.createdAt);
    return Number.isNaN(t) ? null : t;
  },
  size: (s) => s.fileSize,
};

/** What a click on a header starts with: numbers and times largest / newest first, words A to Z. */
export const FIRST_DESCENDING: Record<SessionSortKey, boolean> = {
  name: false,
  status: false,
  gcs: true,
  duration: true,
  maxPause: true,
  paused: true,
  gcMode: false,
  taken: true,
  size: true,
};

/** Newest taken first, then newest added (the page's default order). */
function newestFirst(a: SessionInfo, b: SessionInfo): number {
  const ta = VALUE.taken(a) ?? Number.NEGATIVE_INFINITY;
  const tb = VALUE.taken(b) ?? Number.NEGATIVE_INFINITY;
  return ta !== tb ? (tb > ta ? 1 : -1) : b.id - a.id;
}

const COLLATOR = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function sortSessions(list: readonly SessionInfo[], key: SessionSortKey, desc: boolean): SessionInfo[] {
  const value = VALUE[key];
  const keyed = list.map((s) => ({ s, v: value(s) }));
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) return a.v === b.v ? newestFirst(a.s, b.s) : a.v === null ? 1 : -1;
    // Names compare as people read them: "net9" before "net10", "run 2" before "run 10".
    const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : COLLATOR.compare(String(a.v), String(b.v));
    // Equal values in the page's default order, newest taken first (then newest added), in the
    // first direction a click gives, and the other way round in the other, so a second click
    // always reverses the list. (By when added alone, a column where every session has the same
    // value, such as Status, shuffled the list the user had just seen sorted by Taken.)
    const newer = newestFirst(a.s, b.s);
    const tie = desc === FIRST_DESCENDING[key] ? newer : -newer;
    return c !== 0 ? (desc ? -c : c) : tie;
  });
  return keyed.map((k) => k.s);
}
