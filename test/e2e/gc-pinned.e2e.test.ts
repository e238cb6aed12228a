/// <reference lib="dom" />
/**
 * Who is pinned, as a user sees it (issue 39): on a pinning workload's trace imported with
 * `gcscope import`, a GC's detail lists the objects it found pinned by type — System.Byte[]
 * request buffers, as many as the trace's report counts for that GC — and says the code that
 * pins them is not in the trace. Screenshots at 1280×800 and 1920×1080 go to test-output/gc-pinned/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allowDelayedCalls, chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { TRACES, problemTraceName } from '../helpers/fixtures.js';

const OUT = join(process.cwd(), 'test-output', 'gc-pinned');
const TRACE = TRACES + problemTraceName('pinning-fragmentation');
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;
let sessionId = 0;
/** A Server GC trace of the default profile: the runtime's per-GC pinned counts, no PinObjectAtGCTime events. */
let countsOnlySessionId = 0;
let report: { gcs: { number: number; pinnedObjectCount: number | null }[] };

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'GC detail pinned-objects end-to-end test');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const db = join(OUT, 'pins.db');
  const r = await runCli(['import', TRACE, '--db', db, '--json']);
  expect(r.code, r.stderr).toBe(0);
  sessionId = (JSON.parse(r.stdout) as { sessionId: number }).sessionId;
  report = JSON.parse((await runCli(['report', '--json', TRACE])).stdout) as typeof report;
  const counts = await runCli(['import', TRACES + 'compare-server.nettrace.zip', '--db', db, '--json']);
  expect(counts.code, counts.stderr).toBe(0);
  countsOnlySessionId = (JSON.parse(counts.stdout) as { sessionId: number }).sessionId;
  server = await serve(db);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await allowDelayedCalls(page);
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=home]');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("a GC's detail says who is pinned", () => {
  it('lists the pinned objects by type with the count the trace reports, and says how to see who pins them', async () => {
    await page.evaluate((id) => (location.hash = `#/session/${id}`), sessionId);
    await page.waitForSelector('[data-testid=session-view]');
    await page.waitForFunction((n) => document.querySelector('[data-testid=gc-row-count]')?.textContent?.endsWith(`of ${n} GCs`), report.gcs.length);
    // The GC that pinned the most.
    const most = report.gcs.reduce((a, g) => ((g.pinnedObjectCount ?? 0) > (a.pinnedObjectCount ?? 0) ? g : a));
    // Newest first, so the GC is among the rows the table renders.
    await page.click('[data-testid=sort-number]');
    if (!(await page.textContent('[data-testid=sort-number]'))!.includes('▼')) await page.click('[data-testid=sort-number]');
    const row = page.locator('[data-testid=gc-row]', { has: page.locator(`span:text-is("${most.number}")`) }).first();
    await row.scrollIntoViewIfNeeded();
    await row.click();
    await page.waitForSelector('[data-testid=gc-pinned-row]');
    const rows = await page
      .locator('[data-testid=gc-pinned-row]')
      .evaluateAll((els) => els.map((e) => Array.from(e.children).map((c) => c.textContent!.trim())));
    expect(rows[0]![0]).toBe('System.Byte[]');
    const objects = rows.reduce((s, r) => s + Number(r[1]!.replace(/,/g, '')), 0);
    expect(objects).toBe(most.pinnedObjectCount);
    const text = await page.textContent('[data-testid=gc-pinned]');
    expect(text).toContain('Who pins them is not in the trace');
    await page.locator('[data-testid=gc-pinned]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, 'gc-pinned-1280x800.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.locator('[data-testid=gc-pinned]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, 'gc-pinned-1920x1080.png') });
  });

  it('on a trace without PinObjectAtGCTime, says the runtime counted N pinned objects instead of a bare "not in this trace" beside the facts\' count', async () => {
    await page.evaluate((id) => (location.hash = `#/session/${id}`), countsOnlySessionId);
    await page.waitForSelector('[data-testid=session-view]');
    await page.waitForFunction(() => document.querySelector('[data-testid=gc-row-count]')?.textContent?.endsWith('of 14 GCs'));
    // GC #1 of compare-server: the runtime's per-heap histories count one pinned object.
    await page
      .locator('[data-testid=gc-row]', { has: page.locator('span:text-is("1")') })
      .first()
      .click();
    const missing = page.locator('[data-testid=gc-pinned-missing]');
    await missing.waitFor();
    expect((await missing.textContent())!.replace(/\s+/g, ' ')).toContain('The runtime counted 1 pinned object in this GC; the types are not in this trace');
    expect(await page.locator('[data-testid=gc-detail]').textContent()).toMatch(/Pinned\s*1 object/);
  });
});
