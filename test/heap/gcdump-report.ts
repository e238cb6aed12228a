/** Reading `dotnet-gcdump report`'s text output: the oracle's totals and per-type counts. */

interface ReportRow {
  name: string;
  module: string;
  count: number;
}
/** `dotnet-gcdump report`'s output: totals, then `bytes  count  type  [module]` rows. */
export function parseReport(text: string): { bytes: number; objects: number; rows: ReportRow[] } {
  const lines = text.split('\n');
  const num = (s: string): number => Number(s.replaceAll(',', ''));
  const bytes = num(
    lines
      .find((l) => l.includes('GC Heap bytes'))!
      .trim()
      .split(/\s+/)[0]!,
  );
  const objects = num(
    lines
      .find((l) => l.includes('GC Heap objects'))!
      .trim()
      .split(/\s+/)[0]!,
  );
  const rows: ReportRow[] = [];
  for (const l of lines) {
    const m = /^\s*([\d,]+)\s+([\d,]+)\s\s(.*)$/.exec(l);
    if (m === null) continue;
    let name = m[3]!;
    let module = '';
    const mod = /\s\s\[([^[\]]+)\]$/.exec(name);
    if (mod !== null) {
      module = mod[1]!;
      name = name.slice(0, mod.index);
    }
    rows.push({ name: name.replace(/ \(Bytes > [0-9.]+[KMG]?\)$/, ''), module, count: num(m[2]!) });
  }
  return { bytes, objects, rows };
}

/** Report rows merged by type (PerfView splits big objects into size buckets; GCScope does not). */
export function countsByType(rows: readonly ReportRow[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows) m.set(`${r.module}!${r.name}`, (m.get(`${r.module}!${r.name}`) ?? 0) + r.count);
  return m;
}
