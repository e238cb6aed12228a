/// <reference lib="dom" />
/**
 * Watch mode as a user sees it, in real Chromium through `gcscope serve`, against a real .NET 10
 * process (the workload's watch-spike mode: one long induced GC after a quiet period): Watch from
 * the process list with a trigger (and gc-verbose after it), the live session gets a capture mark on its time axis when the
 * GC fires, a message says so, and clicking the mark opens the capture as a session holding that
 * GC. Screenshots at 1280×800 and 1920×1080 go to test-output/watch-e2e/.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { skipOrFail } from '../helpers/environment.js';
import { buildWorkload, dotnetMissingReason, startWorkload } from '../workloads/workload.js';

const OUT = join(process.cwd(), 'test-output', 'watch-e2e');
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;
const children: ChildProcess[] = [];

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'Watch mode end-to-end tests') || skipOrFail(await dotnetMissingReason(), 'Watch mode end-to-end tests');
  if (skip) return;
  await buildWorkload();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  server = await serve(join(OUT, 'watch.db'));
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=home]');
}, 300_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await browser?.close();
  await server?.stop();
});

describe('Watch mode in the app', () => {
  it('Watch on a process shows a capture mark when its long induced GC fires the trigger, and the mark opens the capture with that GC', async () => {
    const w = startWorkload({ mode: 'concurrent', args: ['--scenario', 'watch-spike', '--seconds', '14'], env: { GCSCOPE_SPIKE_AT: '6' } }, children);
    const { pid } = await w.ready;
    const row = page.locator(`[data-testid=process-row][data-pid="${pid}"]`);
    await row.waitFor({ timeout: 30_000 });
    await page.locator('[data-testid=watch-settings] summary').click();
    await page.fill('[data-testid=watch-trigger]', 'induced');
    await page.fill('[data-testid=watch-before]', '3');
    await page.fill('[data-testid=watch-after]', '1');
    await page.check('[data-testid=watch-verbose-after]');
    await page.screenshot({ path: join(OUT, 'watch-home-1280x800.png') });
    await row.locator('[data-testid=watch-button]').click();
    await page.waitForSelector('[data-testid=live-status]', { timeout: 30_000 });
    // A watch session shows its (empty) captures lane from the start.
    await page.waitForSelector('[data-testid=captures-empty]');
    const mark = page.locator('[data-testid=capture-mark]');
    await mark.waitFor({ timeout: 40_000 });
    expect(await mark.count()).toBe(1);
    await page.waitForFunction(() => /Captured induced on GC #[\d,]+: induced \(InducedCompacting\)/.test(document.body.textContent ?? ''), undefined, {
      timeout: 10_000,
    });
    // The settings reached the watch: its capture has the gc-verbose recording of the second after.
    await page.waitForFunction(
      () => /with a gc-verbose recording of the seconds after/.test(document.querySelector('[data-testid=lane-captures]')?.textContent ?? ''),
      undefined,
      { timeout: 10_000 },
    );
    const title = (await mark.getAttribute('title')) ?? '';
    const gcNumber = Number(/GC #([\d,]+)/.exec(title)![1]!.replace(/,/g, ''));
    await page.screenshot({ path: join(OUT, 'watch-live-1280x800.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.screenshot({ path: join(OUT, 'watch-live-1920x1080.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await mark.click();
    // The capture is a session of its own: the triggering GC is in its table, complete.
    await page.waitForFunction(
      () => /^capture: induced at GC #[\d,]+/.test(document.querySelector('[data-testid=session-view] h2')?.textContent?.trim() ?? ''),
      undefined,
      { timeout: 20_000 },
    );
    await page.waitForSelector('[data-testid=filter-reason]');
    await page.selectOption('[data-testid=filter-reason]', { label: 'InducedCompacting' });
    await page.waitForFunction(() => /^1 of \d+ GCs$/.test(document.querySelector('[data-testid=gc-row-count]')?.textContent?.trim() ?? ''), undefined, {
      timeout: 20_000,
    });
    expect(await page.locator('[data-testid=gc-row]').first().textContent()).toContain(String(gcNumber));
    expect(await page.locator('[data-testid=session-status]').textContent()).toBe('complete');
    // It says where it came from and leads back to the watch.
    expect(await page.locator('[data-testid=capture-origin]').textContent()).toMatch(new RegExp(`induced fired on GC #${gcNumber.toLocaleString('en-US')}`));
    await page.screenshot({ path: join(OUT, 'capture-session-1280x800.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.screenshot({ path: join(OUT, 'capture-session-1920x1080.png') });
    await page.click('[data-testid=open-watch-session]');
    await page.waitForFunction(
      () => /^watch: GcWorkload \(pid \d+\)$/.test(document.querySelector('[data-testid=session-view] h2')?.textContent?.trim() ?? ''),
      undefined,
      { timeout: 20_000 },
    );
    await page.waitForSelector('[data-testid=capture-mark]');
    await w.exited;
  }, 180_000);
});
