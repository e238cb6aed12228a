/**
 * A full disk is said in one line with what to do (issue 40), whether SQLite (SQLITE_FULL, a
 * StoreError) or a file write (ENOSPC: a raw trace, a capture) found it — not "internal error".
 */
import { describe, expect, it } from 'vitest';
import { cliErrorOf } from '../../src-main/cli/main.js';
import { EXIT_FAILURE } from '../../src-main/cli/output.js';
import { StoreError } from '../../src-main/store/db.js';

describe('the CLI line for a full disk', () => {
  it('ENOSPC from a file write', () => {
    const e = Object.assign(new Error("ENOSPC: no space left on device, write '/x/trace.nettrace'"), { code: 'ENOSPC' });
    const c = cliErrorOf(e);
    expect(c.message).toBe("the disk is full: no space left on device, write '/x/trace.nettrace'; free space and try again");
    expect(c.exitCode).toBe(EXIT_FAILURE);
  });

  it('a disk-full StoreError keeps its message', () => {
    const c = cliErrorOf(new StoreError('disk-full', 'the disk is full: SQLite could not write the database /x/db (SQLITE_FULL); free space and try again'));
    expect(c.message).not.toMatch(/internal error/);
    expect(c.exitCode).toBe(EXIT_FAILURE);
  });
});
