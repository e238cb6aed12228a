/**
 * The store's integrity check, used by tests after every import and available to users
 * (`gcscope sessions --check`): SQLite's own checks plus the invariants of GC rows.
 */
import { StoreError, type Database } from './db.js';

export async function checkIntegrity(db: Database): Promise<string[]> {
  const problems: string[] = [];
  // A damaged file or a missing table is a finding of the check, not a reason to stop it.
  let damaged = false;
  const attempt = async (what: string, fn: () => Promise<void>): Promise<void> => {
    if (damaged) return; // one "damaged" finding is enough; every later query would repeat it
    try {
      await fn();
    } catch (e) {
      damaged = e instanceof StoreError && e.code === 'corrupt';
      problems.push(`${what}: ${(e as Error).message}`);
    }
  };
  await attempt('sqlite integrity_check', async () => {
    const ic = await db.all<{ integrity_check: string }>('PRAGMA integrity_check');
    if (ic.length !== 1 || ic[0]!.integrity_check !== 'ok') problems.push(`sqlite integrity_check: ${ic.map((r) => r.integrity_check).join('; ')}`);
  });
  await attempt('foreign key check', async () => {
    const fk = await db.all<Record<string, unknown>>('PRAGMA foreign_key_check');
    if (fk.length > 0) problems.push(`${fk.length} rows violate foreign keys`);
  });
  const checks: [string, string][] = [
    ['GC rows whose pause is negative', 'SELECT COUNT(*) AS n FROM gcs WHERE pause_msec < 0 OR suspend_msec < 0'],
    ['completed GCs without a heap size after', 'SELECT COUNT(*) AS n FROM gcs WHERE is_complete = 1 AND heap_after_mb IS NULL'],
    ['GCs whose generation is not 0, 1 or 2', 'SELECT COUNT(*) AS n FROM gcs WHERE generation NOT IN (0, 1, 2)'],
    [
      'GC rows whose numbers do not increase with their index',
      `SELECT COUNT(*) AS n FROM gcs a JOIN gcs b ON a.session_id = b.session_id AND b.idx = a.idx + 1 WHERE b.number <= a.number`,
    ],
    [
      'GC rows whose pause start goes backwards by more than a second',
      `SELECT COUNT(*) AS n FROM gcs a JOIN gcs b ON a.session_id = b.session_id AND b.idx = a.idx + 1 WHERE b.pause_start_msec < a.pause_start_msec - 1000`,
    ],
    [
      'per-heap rows without their GC',
      'SELECT COUNT(*) AS n FROM gc_heaps h LEFT JOIN gcs g ON g.session_id = h.session_id AND g.idx = h.gc_idx WHERE g.idx IS NULL',
    ],
    [
      'complete sessions still marked as having a recording in progress',
      "SELECT COUNT(*) AS n FROM sessions WHERE status = 'complete' AND status_reason LIKE 'recording%'",
    ],
  ];
  for (const [what, sql] of checks) {
    await attempt(`checking ${what}`, async () => {
      const r = await db.get<{ n: number }>(sql);
      if ((r?.n ?? 0) > 0) problems.push(`${r!.n} ${what}`);
    });
  }
  return problems;
}
