/**
 * A stuck analysis must not hold back the ones behind it (issue 40: one findings request spun the
 * worker, and every later findings request and comparison went unanswered until restart). The
 * runner sends one request at a time with a time limit: past it the request fails with a typed
 * 'timeout' error, the worker is terminated and a new one serves the requests that were queued.
 * A stand-in worker script that never answers a comparison plays the stuck request.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CompareInput } from '../../src-main/compare/comparison.js';
import type { DiagnosisFacts } from '../../src-main/diagnosis/rule.js';
import { AnalysisRunner } from '../../src-main/service/analysis-runner.js';
import { ApiFailure } from '../../src-main/service/errors.js';
import type { GcColumns } from '../../src-main/shared/gc-column-registry.js';

const DIR = join(process.cwd(), 'test-output', 'analysis-timeout');
const SCRIPT = join(DIR, 'stuck-worker.mjs');
let runner: AnalysisRunner | undefined;

beforeAll(() => {
  mkdirSync(DIR, { recursive: true });
  // Answers a diagnosis at once (saying whether its columns came with it); spins on a comparison.
  writeFileSync(
    SCRIPT,
    `import { parentPort } from 'node:worker_threads';
parentPort.on('message', (r) => {
  if (r.kind === 'compare') for (;;);
  parentPort.postMessage({ id: r.id, ok: true, value: { key: r.key, columns: r.columns !== undefined } });
});
`,
  );
});

afterAll(() => rmSync(DIR, { recursive: true, force: true }));
afterEach(async () => {
  await runner?.close();
  runner = undefined;
});

const job = (key: string | null) => ({ key, columns: {} as GcColumns, facts: {} as DiagnosisFacts, overrides: {} });
const side = { columns: {} } as CompareInput;

/** The promise's outcome, or a failure if it has not settled in `ms`. */
async function within<T>(p: Promise<T>, ms: number): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not settled in ${ms} ms`)), ms)));
  try {
    return await Promise.race([
      p.then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the analysis runner’s time limit', () => {
  it('fails a stuck request with a typed timeout, restarts the worker and answers the requests queued behind it', async () => {
    runner = new AnalysisRunner(SCRIPT, { timeoutMs: 400 });
    // A finished session's columns go to the worker once…
    expect(await within(runner.diagnose(job('s1')), 10_000)).toEqual({ ok: true, value: { key: 's1', columns: true } });
    expect(await within(runner.diagnose(job('s1')), 10_000)).toEqual({ ok: true, value: { key: 's1', columns: false } });
    const t0 = performance.now();
    const stuck = runner.compare(side, side, {});
    const behind = [runner.diagnose(job('s1')), runner.diagnose(job(null))];
    const r = await within(stuck, 10_000);
    expect(r.ok).toBe(false);
    const e = (r as { error: unknown }).error;
    expect(e).toBeInstanceOf(ApiFailure);
    expect((e as ApiFailure).code).toBe('timeout');
    expect((e as ApiFailure).message).toMatch(/took longer than/);
    expect(performance.now() - t0).toBeLessThan(5000);
    // …and again to the new worker, which holds nothing.
    expect(await within(behind[0]!, 10_000)).toEqual({ ok: true, value: { key: 's1', columns: true } });
    expect(await within(behind[1]!, 10_000)).toMatchObject({ ok: true, value: { columns: true } });
    // A second stuck request is stopped too, and the worker after it still answers.
    expect((await within(runner.compare(side, side, {}), 10_000)).ok).toBe(false);
    expect(await within(runner.diagnose(job('s2')), 10_000)).toEqual({ ok: true, value: { key: 's2', columns: true } });
  });

  it('closing fails the requests still waiting instead of leaving them unanswered', async () => {
    runner = new AnalysisRunner(SCRIPT, { timeoutMs: 60_000 });
    const stuck = within(runner.compare(side, side, {}), 5000);
    const behind = within(runner.diagnose(job('s1')), 5000);
    await new Promise((res) => setTimeout(res, 100));
    await runner.close();
    expect((await stuck).ok).toBe(false);
    expect((await behind).ok).toBe(false);
  });
});
