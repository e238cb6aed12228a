/**
 * The diff of two snapshots by type. .NET objects move and have no stable identity, so snapshots
 * are matched by type (module file and full name), as Visual Studio and PerfView do; deltas are
 * the second snapshot minus the first, biggest growth first.
 */
import type { TypeRow } from './analysis.js';
import { moduleFileName } from './type-names.js';

export interface TypeDiffRow {
  readonly name: string;
  readonly fullName: string;
  readonly module: string;
  readonly count: number;
  readonly bytes: number;
  readonly retainedBytes: number;
  readonly countDelta: number;
  readonly bytesDelta: number;
  readonly retainedBytesDelta: number;
  /** Not in the first snapshot. */
  readonly isNew: boolean;
  /** Not in the second snapshot. */
  readonly isGone: boolean;
}

function key(t: TypeRow): string {
  return `${moduleFileName(t.module)}!${t.fullName}`;
}

export function diffTypes(first: readonly TypeRow[], second: readonly TypeRow[]): TypeDiffRow[] {
  const before = new Map<string, TypeRow>();
  for (const t of first) before.set(key(t), t);
  const rows: TypeDiffRow[] = [];
  const seen = new Set<string>();
  for (const t of second) {
    const k = key(t);
    seen.add(k);
    const b = before.get(k);
    rows.push({
      name: t.name,
      fullName: t.fullName,
      module: t.module,
      count: t.count,
      bytes: t.bytes,
      retainedBytes: t.retainedBytes,
      countDelta: t.count - (b?.count ?? 0),
      bytesDelta: t.bytes - (b?.bytes ?? 0),
      retainedBytesDelta: t.retainedBytes - (b?.retainedBytes ?? 0),
      isNew: b === undefined,
      isGone: false,
    });
  }
  for (const [k, b] of before) {
    if (seen.has(k)) continue;
    rows.push({
      name: b.name,
      fullName: b.fullName,
      module: b.module,
      count: 0,
      bytes: 0,
      retainedBytes: 0,
      countDelta: -b.count,
      bytesDelta: -b.bytes,
      retainedBytesDelta: -b.retainedBytes,
      isNew: false,
      isGone: true,
    });
  }
  rows.sort(
    (x, y) => y.bytesDelta - x.bytesDelta || y.retainedBytesDelta - x.retainedBytesDelta || y.countDelta - x.countDelta || x.name.localeCompare(y.name),
  );
  return rows;
}
