/// <reference lib="dom" />
/**
 * The comparison view as a user sees it, in real Chromium through `gcscope serve`, on the real
 * workload runs of test/compare (imported with `gcscope import`): tick two sessions in Sessions,
 * Compare, read the verdicts — the same run recorded twice reads "no detectable change"
 * everywhere; against Server GC the GC-mode difference is said at the top and the verdicts name
 * the changes; the warm-up toggle; two ranges of one session. Screenshots at 1280×800 and
 * 1920×1080 go to test-output/compare/ (docs/screenshots/compare-*.png come from there).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { TRACES } from '../helpers/fixtures.js';

const OUT = join(process.cwd(), 'test-output', 'compare');
const TRACE_NAMES = ['compare-ws-1.nettrace.zip', 'compare-ws-2.nettrace.zip', 'compare-server.nettrace.zip'] as const;
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;
const sessionOf: Record<string, number> = {};

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'comparison view end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const db = join(OUT, 'compare.db');
  for (const t of TRACE_NAMES) {
    const r = await runCli(['import', TRACES + t, '--db', db, '--json']);
    expect(r.code, r.stderr).toBe(0);
    sessionOf[t] = (JSON.parse(r.stdout) as { sessionId: number }).sessionId;
  }
  server = await serve(db);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=home]');
}, 120000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Ticks sessions in Sessions (first = A) and presses Compare. */
async function pickAndCompare(a: string, b: string): Promise<void> {
  await page.click('[data-testid=nav-library]');
  await page.waitForSelector('[data-testid=session-row]');
  for (const t of [a, b]) await page.locator('[data-testid=session-row]', { hasText: t }).locator('[data-testid=compare-pick]').check();
  await page.click('[data-testid=compare-selected]');
  await page.waitForSelector('[data-testid=compare-table]');
}

async function verdicts(): Promise<Record<string, { verdict: string; text: string }>> {
  return page
    .locator('[data-testid=compare-row]')
    .evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((r) => [
          (r as HTMLElement).dataset.metric!,
          { verdict: (r as HTMLElement).dataset.verdict!, text: r.querySelector('[data-testid=compare-verdict]')!.textContent!.trim() },
        ]),
      ),
    );
}

describe('the comparison view in a real browser', () => {
  it('the same run recorded twice: pick two sessions, Compare, and every verdict reads "no detectable change"', async () => {
    await pickAndCompare(TRACE_NAMES[0], TRACE_NAMES[1]);
    expect(page.url()).toContain(`#/compare/${sessionOf[TRACE_NAMES[0]]}/${sessionOf[TRACE_NAMES[1]]}`);
    await page.waitForSelector('[data-testid=compare-no-change]');
    const v = await verdicts();
    expect(Object.keys(v)).toEqual(expect.arrayContaining(['p50-pause-gen0', 'p90-pause-gen0', 'pause-time-percent', 'gcs-per-gb', 'peak-heap']));
    for (const [id, x] of Object.entries(v)) {
      expect([id, x.verdict]).not.toEqual([id, 'higher']);
      expect([id, x.verdict]).not.toEqual([id, 'lower']);
    }
    expect(v['p50-pause-gen0']!.text).toBe('no detectable change');
    expect(await page.locator('[data-testid=compare-differences]').count()).toBe(0);
    // The charts drew both sides.
    expect(await page.getAttribute('[data-testid=compare-ecdf]', 'data-points')).toMatch(/^\d+,\d+$/);
    expect(await page.getAttribute('[data-testid=compare-heap]', 'data-points')).toMatch(/^\d+,\d+$/);
    await page.screenshot({ path: join(OUT, 'compare-same-1280x800.png') });
  });

  it('workstation against Server GC: the GC-mode difference is said at the top, and the verdicts name the changes', async () => {
    await pickAndCompare(TRACE_NAMES[0], TRACE_NAMES[2]);
    await expect
      .poll(() => page.locator('[data-testid=compare-differences]').textContent())
      .toMatch(/GC mode differs: A workstation \(non-concurrent\), B server/);
    // The banner comes before the table.
    const banner = (await page.locator('[data-testid=compare-differences]').boundingBox())!;
    const table = (await page.locator('[data-testid=compare-table]').boundingBox())!;
    expect(banner.y).toBeLessThan(table.y);
    const v = await verdicts();
    expect(v['gcs-per-gb']).toEqual({ verdict: 'lower', text: 'lower in B' });
    // The Change column says what it holds, in its header's tooltip and under the table: the
    // medians' Hodges–Lehmann shift (marked HL) and the other rows' ratio B/A.
    expect(await page.textContent('[data-testid=compare-change-head]')).toBe('Change (B vs A)');
    expect(await page.getAttribute('[data-testid=compare-change-head]', 'title')).toMatch(
      /^\(HL\): the Hodges–Lehmann shift of a tested median — the median of all pairwise differences B − A/,
    );
    expect(await page.textContent('[data-testid=compare-change-note]')).toMatch(/not B's median minus A's\. Other rows: the ratio B\/A/);
    expect(await page.locator('[data-testid=compare-row][data-metric=p50-pause-gen0] [data-testid=compare-change]').textContent()).toMatch(
      /^\+[\d.]+ ms \(HL\)$/,
    );
    expect(await page.locator('[data-testid=compare-row][data-metric=gcs-per-gb] [data-testid=compare-change]').textContent()).toBe('−60 %');
    expect(v['peak-heap']).toEqual({ verdict: 'higher', text: 'higher in B' });
    // Findings present in A and not in B, from each side's diagnosis.
    expect(await page.locator('[data-testid=findings-only-a]').textContent()).toMatch(/GC #149 paused 229 ms/);
    expect(await page.locator('[data-testid=findings-only-b]').textContent()).toMatch(/Server GC on \.NET 9\+ but the trace has no DATAS data/);
    const changes = await page.locator('[data-testid=compare-changes] li').allTextContents();
    expect(changes.join('\n')).toMatch(/worse peak heap 2\.2× higher in B \(95 % CI/);
    expect(changes.join('\n')).toMatch(/better GCs per GB allocated .* lower in B \(95 % CI/);
    await page.screenshot({ path: join(OUT, 'compare-1280x800.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(OUT, 'compare-1920x1080.png') });
    await page.screenshot({ path: join(OUT, 'compare-1920x1080-full.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows the warm-up excluded by default, and the toggle includes it', async () => {
    const warm = page.locator('[data-testid=compare-warmup]').first();
    await expect.poll(() => warm.textContent()).toMatch(/Warm-up excluded: first 161 ms, 8 GCs/);
    await page.check('[data-testid=include-warmup]');
    await expect.poll(() => warm.textContent()).toMatch(/Warm-up included: first 161 ms, 8 GCs/);
    await expect.poll(() => page.locator('[data-testid=compare-side-info]').first().textContent()).toMatch(/600 GCs compared of 600/);
  });

  it('compares two time ranges of one session, from the URL', async () => {
    const id = sessionOf[TRACE_NAMES[0]]!;
    await page.evaluate((x) => (location.hash = `#/compare/${x}@-7/${x}@7-`), id);
    await expect.poll(() => page.locator('[data-testid=compare-side-info]').first().textContent()).toMatch(/start – 7\.0 s/);
    expect(await page.locator('[data-testid=compare-side-info]').nth(1).textContent()).toMatch(/7\.0 s – end/);
    expect(Object.keys(await verdicts())).toContain('p50-pause-gen0');
    // Heap over time on one relative axis: both ranges last about 7–8 s from their first GC;
    // shifting B by 10 s moves its end past 17 s.
    const xMax = async () => Number(await page.getAttribute('[data-testid=compare-heap]', 'data-x-max'));
    expect(await xMax()).toBeLessThan(12);
    await page.fill('[data-testid=heap-shift-b]', '10');
    await expect.poll(xMax).toBeGreaterThan(17);
    await page.selectOption('[data-testid=heap-align]', 'range-start');
    await expect.poll(xMax).toBeGreaterThan(17);
    expect(await page.getAttribute('[data-testid=compare-heap]', 'data-points')).toMatch(/^\d+,\d+$/);
  });
});
