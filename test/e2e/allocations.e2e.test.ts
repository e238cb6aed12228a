/// <reference lib="dom" />
/**
 * Who caused it (issue 14) as a user sees it, in real Chromium through `gcscope serve`, on the
 * who-allocates workload trace imported with `gcscope import` (its only GC.Collect() caller is
 * WhoAllocates+ReportCache.Flush): the GC detail of an induced GC names that method as the caller
 * below the runtime's GC.Collect frame and lists what was allocated since the previous GC by type,
 * with a type's stacks on demand; the allocations view lists types and a call tree (bottom-up and
 * top-down, search, LOH filter) and follows the selected range. Screenshots at 1280×800 and
 * 1920×1080 go to test-output/allocations/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GcReport } from '../../src-main/report/model.js';
import { chromiumMissingReason, dragAcrossLane, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { TRACES } from '../helpers/fixtures.js';

const OUT = join(process.cwd(), 'test-output', 'allocations');
const TRACE = TRACES + 'who-allocates.nettrace.zip';
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;
let sessionId = 0;
let report: GcReport;

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'allocations end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const db = join(OUT, 'allocations.db');
  const r = await runCli(['import', TRACE, '--db', db, '--json']);
  expect(r.code, r.stderr).toBe(0);
  sessionId = (JSON.parse(r.stdout) as { sessionId: number }).sessionId;
  report = JSON.parse((await runCli(['report', TRACE, '--format', 'json'])).stdout) as GcReport;
  server = await serve(db);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=home]');
  await page.evaluate((id) => (location.hash = `#/session/${id}`), sessionId);
  await page.waitForSelector('[data-testid=session-view]');
  await page.waitForFunction(() => document.querySelector('[data-testid=tile-gc-count]')?.textContent?.trim() !== 'n/a');
}, 120000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openGc(number: number): Promise<void> {
  await page.click('[data-testid=sort-number]');
  if ((await page.textContent('[data-testid=sort-number]'))!.includes('▼')) await page.click('[data-testid=sort-number]');
  const row = page.locator('[data-testid=gc-row]', { has: page.locator(`span:text-is("${number.toLocaleString('en-US')}")`) }).first();
  await row.scrollIntoViewIfNeeded();
  await row.click();
  await page.waitForFunction((n) => document.querySelector('[data-testid=gc-detail] h3')?.textContent?.startsWith(`GC #${n} `), number.toLocaleString('en-US'));
}

const frames = (sel: string): Promise<string[]> => page.locator(`${sel} [data-testid=call-tree-frame]`).allTextContents();

describe('the findings name who caused them', () => {
  it('induced-gcs names ReportCache.Flush as the caller; loh-triggered-gen2 the large type and its allocating method', async () => {
    await page.waitForSelector('[data-finding-id=induced-gcs] [data-testid=finding-who]');
    expect(await page.locator('[data-finding-id=induced-gcs] [data-testid=finding-who-frame]').first().textContent()).toBe('WhoAllocates+ReportCache.Flush()');
    expect(await page.textContent('[data-finding-id=induced-gcs] [data-testid=finding-who]')).toContain('8 of 8 induced GCs');
    const loh = (await page.textContent('[data-finding-id=loh-triggered-gen2] [data-testid=finding-who]'))!;
    expect(loh).toContain('System.Double[] 46.1 MB');
    expect(await page.locator('[data-finding-id=loh-triggered-gen2] [data-testid=finding-who-frame]').first().textContent()).toBe(
      'WhoAllocates+ImageBuffers.Render(int32)',
    );
    await page.screenshot({ path: join(OUT, 'findings-1280.png') });
  });
});

describe('the GC detail says who triggered the GC', () => {
  it("an induced GC: ReportCache.Flush is the caller, right below the runtime's GC.Collect frame", async () => {
    const induced = report.gcs.find((g) => g.reason === 1)!;
    await openGc(induced.number);
    await page.waitForSelector('[data-testid=gc-who-caller]');
    expect(await page.textContent('[data-testid=gc-who-caller]')).toBe('WhoAllocates+ReportCache.Flush()');
    const stack = await page.locator('[data-testid=gc-who-stack] li').allTextContents();
    expect(stack.slice(0, 2)).toEqual(['System.GC.Collect()', 'WhoAllocates+ReportCache.Flush()']);
    // The same stack report --format json gives for that GC.
    expect(stack).toEqual(report.triggers.find((t) => t.gcNumber === induced.number)!.frames);
    await page.screenshot({ path: join(OUT, 'gc-detail-induced-1280.png') });
  });

  it("an allocation-triggered GC: the types allocated since the previous GC, and a type's stacks on demand", async () => {
    const loh = report.gcs.find((g) => g.reason !== 1 && g.number > 1)!;
    await openGc(loh.number);
    await page.waitForSelector('[data-testid=gc-who-caller]');
    expect(await page.textContent('[data-testid=gc-who-caller]')).toBe('WhoAllocates+ImageBuffers.Render(int32)');
    const rows = await page.locator('[data-testid=gc-who-allocations] tbody tr').allTextContents();
    expect(rows[0]).toMatch(/^System\.Double\[\]LOH/);
    await page.click('[data-testid=gc-who-allocations] tbody tr:first-child button');
    await page.waitForSelector('[data-testid=gc-who-type-stacks] [data-testid=call-tree-frame]');
    expect((await frames('[data-testid=gc-who-type-stacks]'))[0]).toBe('WhoAllocates+ImageBuffers.Render(int32)');
    await page.screenshot({ path: join(OUT, 'gc-detail-loh-1280.png') });
    await page.click('[data-testid=close-detail]');
  });
});

describe('the allocations view', () => {
  it('lists types by sampled bytes and a bottom-up call tree whose roots are the allocating methods', async () => {
    await page.locator('[data-testid=allocations-view]').scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-testid=alloc-types] tbody tr');
    const types = await page.locator('[data-testid=alloc-types] tbody tr').allTextContents();
    expect(types[0]).toMatch(/^System\.Double\[\]LOH46\.1 MB62\.8 %384/);
    expect(types[1]).toMatch(/^OrderLineSOH25\.7 MB35\.0 %241/);
    const tree = await frames('[data-testid=alloc-call-tree]');
    expect(tree[0]).toBe('WhoAllocates+ImageBuffers.Render(int32)');
    expect(tree).toContain('WhoAllocates+Orders.Build(int32)');
    await page.screenshot({ path: join(OUT, 'allocations-1280.png'), fullPage: true });
  });

  it('top-down starts from Main; search keeps the stacks through a method; the LOH filter keeps the large types', async () => {
    await page.selectOption('[data-testid=alloc-direction]', 'top-down');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=alloc-call-tree] [data-testid=call-tree-frame]')?.textContent === 'Program.Main(class System.String[])',
    );
    await page.selectOption('[data-testid=alloc-direction]', 'bottom-up');
    await page.fill('[data-testid=alloc-search]', 'orders.build');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=alloc-call-tree] [data-testid=call-tree-frame]')?.textContent === 'WhoAllocates+Orders.Build(int32)',
    );
    expect((await frames('[data-testid=alloc-call-tree]')).filter((f) => f.includes('ImageBuffers'))).toEqual([]);
    // The types table follows the search too: ImageBuffers.Render's System.Double[] (LOH) is not
    // allocated through Orders.Build, and the note says what the table shows.
    await page.waitForSelector('[data-testid=alloc-types-filtered]');
    expect(await page.textContent('[data-testid=alloc-types-filtered]')).toMatch(/^Types allocated through a method matching “orders\.build” \(\d+ types?\)/);
    const searchedTypes = await page.locator('[data-testid=alloc-types] tbody tr td.type-name').allTextContents();
    expect(searchedTypes.length).toBeGreaterThan(0);
    expect(searchedTypes).not.toContain('System.Double[]');
    // The tree's shares are of every sample too, as the table's: Orders.Build is not "100 %".
    const rootShare = await page.locator('[data-testid=alloc-call-tree] .share').first().textContent();
    const typeShares = await page.locator('[data-testid=alloc-types] tbody tr td:nth-child(4)').allTextContents();
    expect(Number.parseFloat(rootShare!)).toBeCloseTo(
      typeShares.reduce((a, x) => a + Number.parseFloat(x), 0),
      0,
    );
    expect(rootShare).not.toBe('100.0 %');
    await page.fill('[data-testid=alloc-search]', 'no such method anywhere');
    await page.waitForSelector('[data-testid=alloc-types-none]');
    await page.fill('[data-testid=alloc-search]', '');
    await page.waitForSelector('[data-testid=alloc-types-filtered]', { state: 'detached' });
    expect(await page.locator('[data-testid=alloc-types] tbody tr td.type-name').allTextContents()).toContain('System.Double[]');
    await page.selectOption('[data-testid=alloc-kind]', 'large');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=alloc-types] tbody tr').length === 1);
    expect(await page.locator('[data-testid=alloc-types] tbody tr').allTextContents()).toEqual([expect.stringMatching(/^System\.Double\[\]LOH/)]);
    await page.selectOption('[data-testid=alloc-kind]', '');
  });

  it('follows the selected range', async () => {
    // The first half of the run: fewer samples than the whole session.
    const t0 = await page.getAttribute('[data-testid=lanes]', 'data-t0');
    expect(t0).not.toBeNull();
    const all = Number((await page.textContent('[data-testid=allocations-note]'))!.replace(/,/g, '').match(/(\d+) samples/)![1]);
    expect(all).toBe(640);
    await page.locator('[data-testid=chart-pauses]').scrollIntoViewIfNeeded();
    await dragAcrossLane(page, 'chart-pauses', 0.02, 0.5);
    await page.waitForSelector('[data-testid=range-label]');
    await page.waitForFunction((n) => {
      const m = document
        .querySelector('[data-testid=allocations-note]')
        ?.textContent?.replace(/,/g, '')
        .match(/(\d+) samples/);
      return m !== null && m !== undefined && Number(m[1]) < n && Number(m[1]) > 0;
    }, all);
    expect(await page.textContent('[data-testid=allocations-view] h4')).toMatch(/selected range/);
  });

  it('looks right at 1920×1080 and 1280×800 (screenshots)', async () => {
    for (const [w, h] of [
      [1920, 1080],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.locator('[data-testid=allocations-view]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUT, `allocations-view-${w}.png`) });
    }
  });
});
