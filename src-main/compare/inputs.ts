/** A comparison side from a stored session's row and columns (the service and `compare --session`). */
import type { GcColumns } from '../shared/gc-column-registry.js';
import type { SessionInfo } from '../shared/session.js';
import type { CompareInput } from './comparison.js';

export function inputFromSession(label: string, s: SessionInfo, columns: GcColumns, range: { fromMSec: number; toMSec: number } | null = null): CompareInput {
  return {
    label,
    sessionId: s.id,
    source: s.tracePath,
    processName: s.processName,
    runtimeVersion: s.runtimeVersion,
    gcMode: s.gcMode,
    concurrent: s.concurrent,
    heapCount: s.heapCount,
    cpuCount: s.cpuCount,
    columns,
    range,
  };
}
