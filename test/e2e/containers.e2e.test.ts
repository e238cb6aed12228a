/// <reference lib="dom" />
/**
 * A .NET process in a container, in the app (issue 41): the workload runs in its own PID and mount
 * namespaces with a private /tmp (test/helpers/namespaced-workload.ts), moved into a Docker-named
 * cgroup where the machine allows. The home list shows it with its container and its PID inside,
 * Record attaches from the host and GCs arrive live, and its session is like any other: named
 * and marked "being recorded" by the PID the host sees, complete when the process ends.
 * Screenshots at 1280×800 and 1920×1080 under test-output/e2e-containers/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { skipOrFail } from '../helpers/environment.js';
import { namespacesMissingReason, startNamespacedWorkload, type NamespacedWorkload } from '../helpers/namespaced-workload.js';
import { buildWorkload, dotnetMissingReason } from '../workloads/workload.js';

const OUT = join(process.cwd(), 'test-output', 'e2e-containers');
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;
const started: NamespacedWorkload[] = [];

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(
    chromiumMissingReason() ?? (await dotnetMissingReason()) ?? namespacesMissingReason(),
    'the home list and a live recording of a .NET process in its own namespaces, in the browser',
  );
  if (skip) return;
  await buildWorkload();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  server = await serve(join(OUT, 'containers.db'));
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => {
    throw e;
  });
}, 300_000);

afterAll(async () => {
  for (const w of started) await w.kill();
  await browser?.close();
  await server?.stop();
});

async function shots(name: string): Promise<void> {
  for (const [w, h] of [
    [1280, 800],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(OUT, `${name}-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('a .NET process in a container, in the app', () => {
  it('the home list shows its container and PID inside; Record attaches from the host, GCs arrive live, and its session is like any other', async () => {
    const w = await startNamespacedWorkload(['--scenario', 'churn,survivors,bgc', '--seconds', '20', '--pause-ms', '30'], started);
    await w.ready;
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=home]');
    const row = page.locator(`[data-testid=process-row][data-pid="${w.hostPid}"]`);
    await row.waitFor({ timeout: 20_000 });
    expect(await row.locator('[data-testid=process-inner-pid]').textContent()).toBe('· 1 inside');
    if (w.containerId !== undefined) {
      const badge = row.locator('[data-testid=process-container]');
      expect(await badge.textContent()).toBe(w.containerId.slice(0, 12));
      expect(await badge.getAttribute('title')).toBe(`Docker container ${w.containerId.slice(0, 12)} (id ${w.containerId}); PID 1 inside`);
    } else {
      expect(await row.locator('[data-testid=process-container]').count()).toBe(0);
    }
    // A plain local process's row stays plain: no container chip, no inner PID.
    const plainRows = page.locator('[data-testid=process-row]').filter({ hasNot: page.locator('[data-testid=process-inner-pid]') });
    for (let i = 0; i < (await plainRows.count()); i++) expect(await plainRows.nth(i).locator('[data-testid=process-container]').count()).toBe(0);
    await shots('home-container');

    await row.locator('[data-testid=record-button]').click();
    await page.waitForSelector('[data-testid=live-status]', { timeout: 20_000 });
    await page.waitForFunction(
      () => Number((document.querySelector('[data-testid=gc-row-count]')?.textContent ?? '0').split(' ')[0]!.replace(/,/g, '')) > 0,
      undefined,
      { timeout: 20_000 },
    );
    // Named by the PID the host sees, as any recording is.
    expect(await page.textContent('[data-testid=session-view]')).toContain(`GcWorkload (pid ${w.hostPid})`);
    await page.waitForTimeout(1500);
    await shots('live-container');

    // Home: the row is marked as being recorded (matched by the host PID the session keeps).
    await page.click('[data-testid=keep-in-background]');
    await page.waitForSelector('[data-testid=home]');
    await row.locator('[data-testid=open-recording]').waitFor({ timeout: 10_000 });
    await row.locator('[data-testid=open-recording]').click();
    await page.waitForSelector('[data-testid=session-status]', { timeout: 40_000 });
    expect(await page.textContent('[data-testid=session-status]')).toBe('complete');
    await w.kill();
  });
});
