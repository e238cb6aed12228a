/**
 * Who caused it, recorded live (issue 14): `gcscope record --profile gc-verbose` on the
 * who-allocates workload (.NET 10) asks for stacks and the runtime's rundown at stop, so the stored
 * session names ReportCache.Flush as the caller of every induced GC and Orders.Build /
 * ImageBuffers.Render as the allocating methods, every frame resolved.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GcReport } from '../../src-main/report/model.js';
import { skipOrFail } from '../helpers/environment.js';
import { runCli } from '../helpers/cli.js';
import { buildWorkload, dotnetMissingReason, WORKLOAD_DLL } from '../workloads/workload.js';

const DIR = join(process.cwd(), 'test-output', 'stacks-live');
let skip = false;

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(await dotnetMissingReason(), 'live call-stack tests');
  if (skip) return;
  await buildWorkload();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
});

describe('a gc-verbose recording resolves its call stacks', () => {
  it('names the caller of GC.Collect and the allocating methods; every frame resolves', async () => {
    const db = join(DIR, 'stacks.db');
    const r = await runCli(
      [
        'record',
        '--profile',
        'gc-verbose',
        '--db',
        db,
        '--out',
        join(DIR, 'traces'),
        '--',
        'dotnet',
        WORKLOAD_DLL,
        '--scenario',
        'who-allocates',
        '--iterations',
        '6',
      ],
      { timeoutMs: 90000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse((await runCli(['report', '--session', '1', '--db', db, '--format', 'json'])).stdout) as GcReport;
    const induced = rep.gcs.filter((g) => g.reason === 1);
    expect(induced.length).toBeGreaterThanOrEqual(6);
    for (const g of induced) expect(rep.triggers.find((t) => t.gcNumber === g.number)?.caller, `GC ${g.number}`).toBe('WhoAllocates+ReportCache.Flush()');
    const a = rep.allocations!;
    expect(a.byType.map((t) => t.typeName)).toEqual(expect.arrayContaining(['System.Double[]', 'OrderLine']));
    expect(a.largeObjectStacks[0]!.frames[0]).toBe('WhoAllocates+ImageBuffers.Render(int32)');
    expect(a.resolution.unresolvedFrames).toBe(0);
    expect(a.resolution.methodsFromLoadEvents).toBeGreaterThan(0);
    expect(a.resolution.methodsFromRundown).toBeGreaterThan(0);
  });
});
