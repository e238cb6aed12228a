/**
 * SQLite access through `sqlite3` (Node-API, so the same build loads in Electron): open with WAL
 * so a live session can be read while it is written, promisified run/all/get, a transaction
 * helper, and numbered migrations tracked in `PRAGMA user_version`. A database written by a
 * newer GCScope (higher user_version) is refused rather than guessed at.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
// Types only here: the native binding is loaded when a database is first opened (connect), so
// commands that never open one (`gcscope events`, `report FILE`) do not pay for it.
import type { Database as RawDatabase, RunResult, Statement as RawStatement } from 'sqlite3';
import { MIGRATIONS } from './migrations.js';

export type SqlValue = number | string | null | Uint8Array;

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: 'newer-schema' | 'open-failed' | 'not-found' | 'duplicate' | 'corrupt' | 'disk-full' | 'sql',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The per-user database, shared by the desktop app and the CLI: Electron's userData folder for
 * an app named GCScope. GCSCOPE_DB overrides it.
 */
export function defaultDatabasePath(): string {
  const env = process.env.GCSCOPE_DB;
  if (env !== undefined && env !== '') return env;
  const home = homedir();
  let base: string;
  if (process.platform === 'win32') base = process.env.APPDATA ?? join(home, 'AppData', 'Roaming');
  else if (process.platform === 'darwin') base = join(home, 'Library', 'Application Support');
  else {
    // XDG Base Directory: an empty or relative XDG_CONFIG_HOME is invalid and means "unset"
    // (treating '' as a path put the database in ./GCScope/ of whatever folder the user was in).
    const xdg = process.env.XDG_CONFIG_HOME;
    base = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(home, '.config');
  }
  return join(base, 'GCScope', 'gcscope.db');
}

export class Database {
  /** The second connection `reader()` opens (null: none can be, e.g. an in-memory database). */
  private second: Promise<Database | null> | undefined;
  private closed = false;

  private constructor(
    private readonly db: RawDatabase,
    readonly path: string,
    private readonly how: 'readwrite' | 'readonly' | 'immutable' = 'readwrite',
  ) {}

  /**
   * A second, read-only connection to the same file, opened on first use and closed with this
   * one; null for an in-memory database or when it cannot be opened. SQLite runs one statement
   * at a time per connection, and sqlite3 runs each connection's statements on a thread of
   * libuv's pool: a large read split over two connections uses two cores (the first open of a
   * 100,000-GC session reads its 45 view columns as JSON in ~300 ms instead of ~600 ms). It sees
   * only committed data (WAL), which is all a finished session has.
   */
  reader(): Promise<Database | null> {
    if (this.second === undefined) {
      this.second =
        this.closed || this.path === ':memory:' || this.path === ''
          ? Promise.resolve(null)
          : Database.connect(this.path, this.how === 'immutable' ? 'immutable' : 'readonly', true).catch(() => null);
    }
    return this.second;
  }

  /**
   * `mapped: false` for a connection whose job is writing (an import, a recording): SQLite then
   * reads pages with read() into its small page cache instead of through the memory map. Mapped
   * pages it touches stay resident and count in the process's RSS: importing a 1.1 GB trace (a
   * 450 MB database) held 256 MB of them, half of the import's peak RSS.
   */
  static async open(path: string, options: { readonly?: boolean; mapped?: boolean } = {}): Promise<Database> {
    if (path !== ':memory:' && options.readonly !== true) {
      try {
        mkdirSync(dirname(path), { recursive: true });
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        throw new StoreError(
          'open-failed',
          `cannot create the folder for the database ${path}: ${err.code === 'EACCES' || err.code === 'EPERM' ? 'permission denied' : err.message}. Use --db to put it elsewhere.`,
        );
      }
    }
    try {
      return await Database.connect(path, options.readonly === true ? 'readonly' : 'readwrite', options.mapped !== false);
    } catch (e) {
      if (options.readonly === true && isReadonlyError(e)) {
        // A WAL database in a folder this user cannot write, with no -shm file to share: SQLite
        // can only read it as immutable (nothing else is writing it, or the -shm would exist).
        return Database.connect(path, 'immutable', options.mapped !== false);
      }
      if (options.readonly !== true && isReadonlyError(e)) {
        throw new StoreError(
          'open-failed',
          `the database ${path} is read-only for this user: listing and reports work, but import, record and delete need write access to it and its folder (or use --db)`,
        );
      }
      throw e;
    }
  }

  private static async connect(path: string, how: 'readwrite' | 'readonly' | 'immutable', mapped: boolean): Promise<Database> {
    const sqlite3 = (await import('sqlite3')).default;
    const mode =
      how === 'readwrite'
        ? sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE
        : how === 'readonly'
          ? sqlite3.OPEN_READONLY
          : sqlite3.OPEN_READONLY | sqlite3.OPEN_URI;
    const name = how === 'immutable' ? `${pathToFileURL(path).href}?immutable=1` : path;
    const raw = await new Promise<RawDatabase>((resolve, reject) => {
      const d = new sqlite3.Database(name, mode, (err) =>
        err ? reject(new StoreError('open-failed', `cannot open database ${path}: ${err.message}`)) : resolve(d),
      );
    });
    const db = new Database(raw, path, how);
    try {
      raw.configure('busyTimeout', 5000);
      if (how === 'readwrite') {
        // Switching a brand-new file to WAL needs an exclusive lock; when another process is
        // creating the same database at that moment SQLite may answer SQLITE_BUSY without
        // waiting on the busy timeout, so the switch is retried for a few seconds.
        for (let attempt = 0; ; attempt++) {
          try {
            await db.exec('PRAGMA journal_mode = WAL');
            break;
          } catch (e) {
            if (attempt >= 50 || !(e instanceof StoreError) || !/SQLITE_BUSY|SQLITE_LOCKED/.test(e.message)) throw e;
            await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
          }
        }
        await db.exec('PRAGMA synchronous = NORMAL');
      }
      await db.exec('PRAGMA foreign_keys = ON');
      // Reads through a memory map instead of read() into SQLite's page cache: a long session's
      // column snapshot is ~45 blobs of 8 bytes a GC, each a chain of overflow pages. Opening
      // 100,000 GCs after a restart read them in 180-280 ms, mapped in 20-85 ms.
      if (mapped) await db.exec('PRAGMA mmap_size = 268435456');
      if (how === 'readwrite') await db.migrate();
      else await db.checkVersion();
    } catch (e) {
      await db.close().catch(() => undefined);
      throw e;
    }
    return db;
  }

  async schemaVersion(): Promise<number> {
    const r = await this.get<{ user_version: number }>('PRAGMA user_version');
    return r?.user_version ?? 0;
  }

  private async checkVersion(): Promise<number> {
    const v = await this.schemaVersion();
    if (v > MIGRATIONS.length) {
      throw new StoreError(
        'newer-schema',
        `the database ${this.path} was written by a newer GCScope (schema ${v}; this version knows up to ${MIGRATIONS.length}). Update GCScope, or use another database with --db.`,
      );
    }
    return v;
  }

  /**
   * Applies the numbered migrations the database has not seen yet, each in its own transaction.
   * Two processes may open a brand-new database at once: the version read before the
   * transaction can be stale by the time the write lock is held, so each step re-reads it
   * inside the transaction (BEGIN IMMEDIATE holds the write lock) and skips a step the other
   * process already applied.
   */
  private async migrate(): Promise<void> {
    const v = await this.checkVersion();
    for (let i = v; i < MIGRATIONS.length; i++) {
      await this.transaction(async () => {
        const now = await this.checkVersion();
        if (now > i) return;
        await this.exec(MIGRATIONS[i]!.sql);
        await this.exec(`PRAGMA user_version = ${i + 1}`);
      });
    }
  }

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.db.exec(sql, (err) => (err ? reject(sqlError(err, sql, this.path)) : resolve())));
  }

  run(sql: string, params: SqlValue[] = []): Promise<{ lastID: number; changes: number }> {
    const path = this.path;
    return new Promise((resolve, reject) =>
      this.db.run(sql, params, function (this: RunResult, err: Error | null) {
        if (err) reject(sqlError(err, sql, path));
        else resolve({ lastID: this.lastID, changes: this.changes });
      }),
    );
  }

  all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    return new Promise((resolve, reject) => this.db.all(sql, params, (err, rows) => (err ? reject(sqlError(err, sql, this.path)) : resolve(rows as T[]))));
  }

  get<T>(sql: string, params: SqlValue[] = []): Promise<T | undefined> {
    return new Promise((resolve, reject) =>
      this.db.get(sql, params, (err, row) => (err ? reject(sqlError(err, sql, this.path)) : resolve(row as T | undefined))),
    );
  }

  /** Runs `fn` inside BEGIN/COMMIT (ROLLBACK on error). Not re-entrant. */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.exec('BEGIN IMMEDIATE');
    try {
      const r = await fn();
      await this.exec('COMMIT');
      return r;
    } catch (e) {
      await this.exec('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  /** A prepared statement for batched inserts. */
  prepare(sql: string): Statement {
    return new Statement(this.db.prepare(sql), sql, this.path);
  }

  async close(): Promise<void> {
    this.closed = true;
    const second = this.second;
    this.second = undefined;
    if (second !== undefined) await (await second)?.close().catch(() => undefined);
    return new Promise((resolve, reject) => this.db.close((err) => (err ? reject(sqlError(err, 'close', this.path)) : resolve())));
  }
}

export class Statement {
  constructor(
    private readonly st: RawStatement,
    private readonly sql: string,
    private readonly path: string,
  ) {}
  run(params: SqlValue[]): Promise<void> {
    return new Promise((resolve, reject) => this.st.run(params, (err: Error | null) => (err ? reject(sqlError(err, this.sql, this.path)) : resolve())));
  }
  finalize(): Promise<void> {
    return new Promise((resolve) => this.st.finalize(() => resolve()));
  }
}

function isReadonlyError(e: unknown): boolean {
  return e instanceof StoreError && /SQLITE_READONLY|SQLITE_CANTOPEN|unable to open/.test(e.message);
}

/** The one line for a full disk (SQLITE_FULL from SQLite, ENOSPC from a file write): what happened and what to do. */
export function diskFullMessage(what: string): string {
  return `the disk is full: ${what}; free space and try again`;
}

function sqlError(err: Error, sql: string, path: string): StoreError {
  // SQLITE_FULL: the file (or its WAL) could not grow. Not an internal error: the transaction was
  // rolled back, and what was committed before is whole.
  if (/SQLITE_FULL/.test(err.message)) return new StoreError('disk-full', diskFullMessage(`SQLite could not write the database ${path} (SQLITE_FULL)`));
  if (/SQLITE_CORRUPT|SQLITE_NOTADB/.test(err.message)) {
    return new StoreError(
      'corrupt',
      `the database is damaged (${err.message}); \`gcscope sessions --check\` lists what is wrong. Keep a copy, then move it aside (GCScope starts a new one) or point --db elsewhere`,
    );
  }
  return new StoreError('sql', `${err.message} (in: ${sql.replace(/\s+/g, ' ').trim().slice(0, 120)})`);
}
