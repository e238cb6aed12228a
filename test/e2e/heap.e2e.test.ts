/// <reference lib="dom" />
/**
 * Heap snapshots in the app (issue 38), in a real `gcscope serve` in Chromium against a real .NET
 * process: Snapshot on a process in the home list opens its Types (count, bytes, retained), a type
 * opens its paths to root, Dominators lists the biggest retainers, and after the process's static
 * dictionary grows a second snapshot's Diff names the type that grew by how much. Screenshots
 * (1280×800 and 1920×1080) under test-output/e2e-heap/.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchBrowser, newWatchedPage, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { dotnetMissingReason } from '../workloads/workload.js';
import { buildHeapWorkload, startWorkload, type Workload } from '../heap/dotnet-gcdump.js';

const OUT = join(process.cwd(), 'test-output', 'e2e-heap');
const DB = join(OUT, 'e2e.db');
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;
let w: Workload;
const problems: string[] = [];

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason() ?? (await dotnetMissingReason()), 'the heap snapshot end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  w = await startWorkload(await buildHeapWorkload(), 3000);
  server = await serve(DB);
  browser = await launchBrowser();
  page = await newWatchedPage(browser, problems);
}, 300_000);

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  w?.child.kill();
});

async function snapshotFromHome(): Promise<void> {
  await page.goto(`${server.url}#/`);
  const row = page.locator(`[data-testid=process-row][data-pid="${w.pid}"]`);
  await row.waitFor({ timeout: 30_000 });
  await row.locator('[data-testid=snapshot-button]').click();
  // The heap's size at the last GC is said before the pause.
  await page.locator('[data-testid=toast-info]', { hasText: 'at its last GC' }).waitFor({ timeout: 30_000 });
}

describe('heap snapshots in the app', () => {
  it('Snapshot on a process opens its types with count, bytes and retained bytes', async () => {
    await snapshotFromHome();
    await page.waitForSelector('[data-testid=heap-snapshot] [data-testid=heap-type-row]', { timeout: 120_000 });
    const customer = page.locator('[data-testid=heap-type-row][data-type=Customer]');
    await expect(customer.locator('td').first().textContent()).resolves.toBe('3,000');
    await expect(page.locator('[data-testid=heap-totals]').textContent()).resolves.toMatch(/Objects\s*[\d,]+/);
    await page.screenshot({ path: join(OUT, 'types-1280x800.png') });
    // Search narrows the table.
    await page.fill('[data-testid=heap-search]', 'order');
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid=heap-type-row]')).every((r) => /order/i.test(r.getAttribute('data-type') ?? '')),
    );
    await expect(page.locator('[data-testid=heap-type-row][data-type=Order]').locator('td').first().textContent()).resolves.toBe('9,000');
    await page.fill('[data-testid=heap-search]', '');
  });

  it('a type opens its paths to root, from the static that holds it', async () => {
    await page.locator('[data-testid=heap-type-row][data-type=Customer] button.type').click();
    const paths = page.locator('[data-testid=heap-paths]');
    await paths.waitFor();
    const first = (await paths.locator('.path').first().textContent()) ?? '';
    expect(first).toContain('[static var System.Collections.Generic.Dictionary<System.Int32,Customer>.Customers]');
    expect(first).toContain('Entry<int, Customer>[]');
    await page.screenshot({ path: join(OUT, 'paths-1280x800.png') });
  });

  it('Dominators lists the biggest retainers', async () => {
    await page.click('[data-testid=heap-tab-dominators]');
    await page.waitForSelector('[data-testid=heap-dominators] li');
    await expect(page.locator('[data-testid=heap-dominators]').textContent()).resolves.toContain('Dictionary<int, Customer>');
    await page.screenshot({ path: join(OUT, 'dominators-1280x800.png') });
  });

  it('Export .gcdump saves the snapshot as a .gcdump that reads back with the same objects (from the view and from the Sessions page)', async () => {
    const objects = Number(((await page.locator('[data-testid=heap-totals] .tile').first().locator('strong').textContent()) ?? '').replace(/,/g, ''));
    const saved: string[] = [];
    for (const [where, button] of [
      ['view', page.locator('[data-testid=heap-snapshot] [data-testid=export-gcdump]')],
      ['sessions', page.locator('[data-testid=session-row][data-kind=heap] [data-testid=export-gcdump]').first()],
    ] as const) {
      if (where === 'sessions') await page.click('[data-testid=nav-library]');
      const download = page.waitForEvent('download');
      await button.click();
      const d = await download;
      expect(d.suggestedFilename()).toMatch(/\.gcdump$/);
      const file = join(OUT, `exported-from-${where}.gcdump`);
      await d.saveAs(file);
      saved.push(file);
      const r = await runCli(['heap', file, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as { objects: number; types: { name: string; count: number }[] };
      expect(j.objects).toBe(objects);
      expect(j.types.find((t) => t.name === 'Customer')?.count).toBe(3000);
    }
    expect(readFileSync(saved[0]!)).toEqual(readFileSync(saved[1]!));
    await page.goBack();
    await page.waitForSelector('[data-testid=heap-snapshot]');
  });

  it('after the static dictionary grows, a second snapshot diffs: Customer +500, biggest growers first', async () => {
    await w.send('grow 500', /grown 3500\n/);
    await snapshotFromHome();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=heap-tab-diff]') instanceof HTMLButtonElement &&
        !(document.querySelector('[data-testid=heap-tab-diff]') as HTMLButtonElement).disabled,
      undefined,
      {
        timeout: 120_000,
      },
    );
    await page.click('[data-testid=heap-tab-diff]');
    const row = page.locator('[data-testid=heap-diff-row][data-type=Customer]');
    await row.waitFor();
    await expect(row.locator('td').first().textContent()).resolves.toBe('+500');
    await expect(page.locator('[data-testid=heap-diff-totals]').textContent()).resolves.toMatch(/objects \+[\d,]+/);
    await page.screenshot({ path: join(OUT, 'diff-1280x800.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.screenshot({ path: join(OUT, 'diff-1920x1080.png') });
    await page.click('[data-testid=heap-tab-types]');
    await page.waitForSelector('[data-testid=heap-type-row]');
    await page.screenshot({ path: join(OUT, 'types-1920x1080.png') });
    expect(problems).toEqual([]);
  });
});
