/**
 * A session deleted while its trace's header is being written (an import that fails or is
 * cancelled after the trace header: the importer deletes the session it made) must not leave an
 * unhandled rejection behind ("no session 65" from the header's UPDATE): in the CLI's main() it
 * surfaced from a fuzzed netperf trace, and in a long-running service it would be a crash.
 */
import { describe, expect, it } from 'vitest';
import { SessionPipeline } from '../../src-main/recording/session-pipeline.js';
import { Database } from '../../src-main/store/db.js';
import { createSession, deleteSession } from '../../src-main/store/sessions.js';

describe('a session deleted under its pipeline', () => {
  it('the trace header written for a session that no longer exists is no unhandled rejection', async () => {
    const db = await Database.open(':memory:');
    const seen: unknown[] = [];
    const onRejection = (e: unknown): void => void seen.push(e);
    process.on('unhandledRejection', onRejection);
    try {
      const id = await createSession(db, { kind: 'gc', name: 't', source: 'import', status: 'recording' });
      const pipeline = new SessionPipeline(db, id);
      await deleteSession(db, id);
      pipeline.analysis.handlers.onTrace!({
        format: 'NetTrace',
        formatVersion: 4,
        formatMinorVersion: 0,
        syncTimeUtc: '2026-11-27T00:00:00.000Z',
        syncTimeUnixMs: 0,
        syncTimeQpc: '0',
        qpcFrequency: 1e7,
        pointerSize: 8,
        processId: 1,
        numberOfProcessors: 2,
        expectedCpuSamplingRate: 0,
        keyValues: {},
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      await db.close();
    }
  });
});
