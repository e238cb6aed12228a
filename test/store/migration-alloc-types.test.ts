/**
 * Migration 9 drops alloc_types (issue 36): a database at the version before it, with
 * per-type totals stored, opens at the latest version without the table, and its sessions stay.
 * The old database is built with sqlite3 itself (Database.open always migrates to the latest).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src-main/store/db.js';
import { checkIntegrity } from '../../src-main/store/integrity.js';
import { MIGRATIONS } from '../../src-main/store/migrations.js';
import { listSessions } from '../../src-main/store/sessions.js';

const DIR = join(process.cwd(), 'test-output', 'migration-alloc-types');

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
});

/** Runs `sql` on a raw connection to `path` (created when missing). */
async function rawExec(path: string, sql: string): Promise<void> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(path, (err) => (err ? reject(err) : resolve(d)));
  });
  try {
    await new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

describe('migration 9', () => {
  it('drops alloc_types from a database at the version before it, keeping its sessions', async () => {
    // Found by its number, so steps appended after it do not move the test.
    const step = MIGRATIONS.findIndex((m) => m.description.startsWith('9:'));
    expect(step).toBe(8);
    const path = join(DIR, 'v8.db');
    const before = MIGRATIONS.slice(0, step)
      .map((m) => m.sql)
      .join('\n');
    await rawExec(
      path,
      `BEGIN;
${before}
INSERT INTO sessions (id, name, source, status, created_at, updated_at) VALUES (1, 'old.nettrace', 'import', 'complete', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
INSERT INTO alloc_types (session_id, type_name, kind, ticks, bytes) VALUES (1, 'System.Byte[]', 0, 12, 1200000), (1, 'System.String', 1, 3, 300000);
PRAGMA user_version = ${step};
COMMIT;`,
    );
    const db = await Database.open(path);
    try {
      expect(await db.schemaVersion()).toBe(MIGRATIONS.length);
      expect(await db.get("SELECT name FROM sqlite_master WHERE name = 'alloc_types'")).toBeUndefined();
      expect((await listSessions(db)).map((s) => s.name)).toEqual(['old.nettrace']);
      expect(await checkIntegrity(db)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
