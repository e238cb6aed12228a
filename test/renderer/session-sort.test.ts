import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../src-main/shared/session.js';
import { sortSessions } from '../../src-renderer/state/session-sort.js';

const base = {
  kind: 'gc',
  source: 'import',
  status: 'complete',
  statusReason: null,
  updatedAt: '',
  tracePath: null,
  format: null,
  qpcFrequency: null,
  processId: null,
  processName: null,
  commandLine: null,
  runtimeVersion: null,
  os: null,
  arch: null,
  cpuCount: null,
  pointerSize: null,
  gcMode: null,
  concurrent: null,
  heapCount: null,
  gcHeapCounts: null,
  eventCount: 0,
  droppedEvents: 0,
  firstEventMSec: null,
  lastEventMSec: null,
  lastHeapStatsMSec: null,
  hasPerHeapHistory: false,
  hasAllocTicks: false,
  hasPinEvents: false,
  nonGCSuspensions: 0,
  undecodableEvents: 0,
  recorderPid: null,
  tags: [],
  notes: '',
  incompleteGCs: 0,
  heapSnapshot: null,
  maxPauseMSec: null,
  totalPauseMSec: 0,
  firstGcMSec: null,
  pauseTimePercentage: null,
} as const;
const session = (id: number, over: Partial<SessionInfo>): SessionInfo => ({
  ...base,
  tags: [],
  id,
  name: `s${id}`,
  createdAt: '2026-11-20T10:00:00Z',
  traceStartUtc: null,
  fileSize: null,
  gcCount: 0,
  ...over,
});

// Added in this order: a recording last week, an old trace imported today, a trace that does not say when it was taken.
const recorded = session(1, { source: 'record', createdAt: '2026-11-17T09:00:00Z', traceStartUtc: '2026-11-17T09:00:00Z', gcCount: 900, fileSize: 5e6 });
const oldImport = session(2, { createdAt: '2026-11-24T08:00:00Z', traceStartUtc: '2021-03-02T12:00:00Z', gcCount: 30, fileSize: null });
const undated = session(3, { createdAt: '2026-11-23T08:00:00Z', gcCount: 2004, fileSize: 1e8 });
const list = [undated, oldImport, recorded]; // the store's order: newest added first

describe('the Sessions page order', () => {
  it('lists the newest trace first by when it was taken, not by when it was added (an old trace imported today goes last)', () => {
    expect(sortSessions(list, 'taken', true).map((s) => s.id)).toEqual([3, 1, 2]);
    expect(sortSessions(list, 'taken', false).map((s) => s.id)).toEqual([2, 1, 3]);
  });

  it('sorts by a number column either way, sessions without the value last', () => {
    expect(sortSessions(list, 'gcs', true).map((s) => s.gcCount)).toEqual([2004, 900, 30]);
    expect(sortSessions(list, 'gcs', false).map((s) => s.gcCount)).toEqual([30, 900, 2004]);
    expect(sortSessions(list, 'size', true).map((s) => s.id)).toEqual([3, 1, 2]);
    expect(sortSessions(list, 'size', false).map((s) => s.id)).toEqual([1, 3, 2]);
  });

  it('sorts names without regard to case and keeps equal ones newest added first', () => {
    const named = [session(4, { name: 'beta' }), session(5, { name: 'Alpha' }), session(6, { name: 'alpha' })];
    expect(sortSessions(named, 'name', false).map((s) => s.id)).toEqual([6, 5, 4]);
  });

  it('sorts names as people read them: "net9" before "net10"', () => {
    const named = [session(7, { name: 'workload-net10' }), session(8, { name: 'workload-net9' }), session(9, { name: 'workload-net8' })];
    expect(sortSessions(named, 'name', false).map((s) => s.name)).toEqual(['workload-net8', 'workload-net9', 'workload-net10']);
  });

  it('a second click reverses the list even where every value is the same', () => {
    const same = [session(12, { gcCount: 5 }), session(11, { gcCount: 5 }), session(10, { gcCount: 5 })];
    const first = sortSessions(same, 'gcs', true).map((s) => s.id);
    expect(first).toEqual([12, 11, 10]);
    expect(sortSessions(same, 'gcs', false).map((s) => s.id)).toEqual([...first].reverse());
  });

  it('where every session has the same value (Status: all complete), a click keeps the default order, newest taken first', () => {
    expect(sortSessions(list, 'status', false).map((s) => s.id)).toEqual(sortSessions(list, 'taken', true).map((s) => s.id));
    expect(sortSessions(list, 'status', true).map((s) => s.id)).toEqual(sortSessions(list, 'taken', false).map((s) => s.id));
  });
});
