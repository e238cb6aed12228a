/**
 * Sessions carry a kind: a database from before the kind column keeps its sessions as GC
 * recordings, and a kind this version does not know (a newer GCScope's) is read back as its name.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src-main/store/db.js';
import { MIGRATIONS } from '../../src-main/store/migrations.js';
import { createSession, getSession, listSessions } from '../../src-main/store/sessions.js';

const DIR = join(process.cwd(), 'test-output', 'session-kind');

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
});

/** Runs SQL on a raw connection (no migrations applied by opening it). */
async function raw(path: string, sql: string): Promise<void> {
  const d = await new Promise<sqlite3.Database>((resolve, reject) => {
    const x = new sqlite3.Database(path, (e) => (e ? reject(e) : resolve(x)));
  });
  await new Promise<void>((resolve, reject) => d.exec(sql, (e) => (e ? reject(e) : resolve())));
  await new Promise<void>((resolve, reject) => d.close((e) => (e ? reject(e) : resolve())));
}

describe('session kinds in the store', () => {
  // Found by what it does, not by its number: other migrations may be added before it.
  const kindStep = MIGRATIONS.findIndex((m) => /ALTER TABLE sessions ADD COLUMN kind\b/.test(m.sql));

  it('has a migration that adds the kind', () => {
    expect(kindStep).toBeGreaterThan(0);
  });

  it('a database from the version before keeps its sessions as GC recordings', async () => {
    const p = join(DIR, 'previous.db');
    // The schema as the previous version left it, with a session written by that version.
    await raw(
      p,
      `${MIGRATIONS.slice(0, kindStep)
        .map((m) => m.sql)
        .join('\n')}
PRAGMA user_version = ${kindStep};
INSERT INTO sessions (name, source, status, created_at, updated_at) VALUES ('old.nettrace', 'import', 'complete', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z');`,
    );
    const db = await Database.open(p);
    try {
      expect(await db.schemaVersion()).toBe(MIGRATIONS.length);
      const [s] = await listSessions(db);
      expect(s).toMatchObject({ name: 'old.nettrace', kind: 'gc', status: 'complete' });
    } finally {
      await db.close();
    }
  });

  let db: Database;
  beforeAll(async () => {
    db = await Database.open(join(DIR, 'kinds.db'));
  });
  afterAll(async () => {
    await db.close();
  });

  it('a session of a kind this version does not know round-trips by its name', async () => {
    const id = await createSession(db, { kind: 'something-new', name: 'from a newer GCScope', source: 'record', status: 'complete' });
    const s = await getSession(db, id);
    expect(s.kind).toBe('something-new');
    // It has no GC rows: its GC figures are empty, not made up.
    expect(s).toMatchObject({ gcCount: 0, maxPauseMSec: null, pauseTimePercentage: null });
    expect((await listSessions(db)).find((x) => x.id === id)?.kind).toBe('something-new');
  });

  it('a kind written by another program (the column, not this code) is read as it is', async () => {
    const id = await createSession(db, { kind: 'gc', name: 'recorded', source: 'record', status: 'complete' });
    expect((await getSession(db, id)).kind).toBe('gc');
    await db.run("UPDATE sessions SET kind = 'heap-snapshot' WHERE id = ?", [id]);
    expect((await getSession(db, id)).kind).toBe('heap-snapshot');
  });
});
