/**
 * Imports write NULLs and 32-bit integers into their INSERT statements as SQL literals and bind only the
 * other values (gc-store.ts insertStatement: binding a value costs the writing thread ~0.5 µs).
 * A stored number must not change by it: every value written that way reads back as the same
 * number, with the same SQLite storage class, as the same value bound as a parameter — on a real
 * SQLite database, for the values GC rows hold and for the edges of exactness.
 */
import { describe, expect, it } from 'vitest';
import { Database, type SqlValue } from '../../src-main/store/db.js';
import { insertStatement } from '../../src-main/store/gc-store.js';

const COLUMNS = ['a INTEGER', 'b REAL', 'c TEXT', 'd', 'e INTEGER NOT NULL'];

/** Values that put every branch and every exactness edge into each column. */
function sampleValues(): SqlValue[] {
  const values: SqlValue[] = [
    null,
    0,
    -0,
    1,
    -1,
    42,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 32,
    2 ** 53 - 1,
    -(2 ** 53 - 1),
    2 ** 53,
    2 ** 53 + 2,
    2 ** 63,
    1e21,
    1e300,
    -1e300,
    0.1,
    0.5,
    12.345678,
    -882.211258875694,
    5e-324,
    2.2250738585072014e-308,
    Number.MAX_VALUE,
    Number.MIN_SAFE_INTEGER,
    140_737_488_355_328,
    "it's",
    '',
    '0',
    '12',
    'NULL',
    new Uint8Array([0, 1, 2, 255]),
    // Doubles SQLite 3.52 reads 1 ULP off when they are written as their shortest decimal text.
    -0.000312882322973951,
    -5.688597335425671e159,
    882.211258875694,
    -0.004561671570073617,
    2.726812712239058e-152,
  ];
  // More of them, at random magnitudes.
  let seed = 7;
  const rand = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let i = 0; i < 2000; i++) values.push((rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20));
  return values;
}

async function stored(db: Database, table: string): Promise<unknown[]> {
  const cols = 'abcde'.split('');
  return db.all(`SELECT n, ${cols.map((c) => `typeof(${c}) AS t${c}, ${c}`).join(', ')} FROM ${table} ORDER BY n`);
}

describe('GC rows written with literals read back exactly as bound parameters do', () => {
  it('stores every value as the same number with the same storage class', async () => {
    const db = await Database.open(':memory:');
    try {
      for (const t of ['bound', 'literal']) await db.exec(`CREATE TABLE ${t} (n INTEGER PRIMARY KEY, ${COLUMNS.join(', ')})`);
      const values = sampleValues();
      // Each value in every column (e: NOT NULL, so no null there), five per row.
      const rows: SqlValue[][] = values.map((v, i) => [
        i,
        v,
        values[(i + 1) % values.length]!,
        values[(i + 2) % values.length]!,
        values[(i + 3) % values.length]!,
        v === null ? 0 : v,
      ]);
      for (const row of rows) await db.run('INSERT INTO bound VALUES (?, ?, ?, ?, ?, ?)', row);
      const head = 'INSERT INTO literal VALUES ';
      for (let i = 0; i < rows.length; i += 100) {
        const { sql, params } = insertStatement(head, rows, i, Math.min(rows.length, i + 100));
        await db.run(sql, params);
      }
      const a = await stored(db, 'bound');
      const b = await stored(db, 'literal');
      expect(b.length).toBe(rows.length);
      for (let i = 0; i < a.length; i++) expect(b[i], `row ${i}`).toStrictEqual(a[i]);
    } finally {
      await db.close();
    }
  });

  it('binds fractional and larger numbers, strings and blobs, and writes only NULLs and 32-bit integers as text', () => {
    const rows: SqlValue[][] = [[null, 0, -7, 2 ** 31 - 1, 2 ** 31, 0.25, "o'k", new Uint8Array([1])]];
    const { sql, params } = insertStatement('INSERT INTO t VALUES ', rows, 0, 1);
    expect(sql).toBe('INSERT INTO t VALUES (NULL, 0, -7, 2147483647, ?, ?, ?, ?)');
    expect(params).toStrictEqual([2 ** 31, 0.25, "o'k", new Uint8Array([1])]);
  });
});
