/// <reference lib="dom" />
/**
 * Recording .NET 8, 9 and 10 processes from the browser UI (`gcscope serve`, Debian's Chromium):
 * the process list shows each runtime's version, Record opens the live session with that version
 * in its header and GCs arriving, and what an older runtime cannot do (before .NET 9: stacks cannot
 * be turned off, the GC settings only come with the full rundown) is said when recording starts —
 * and nothing is said on .NET 9 and 10. Screenshots go to test-output/e2e-runtimes/.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { skipOrFail } from '../helpers/environment.js';
import { buildWorkload, dotnetMissingReason, RUNTIMES, runtimeMajor, startWorkload } from '../workloads/workload.js';

const OUT = join(process.cwd(), 'test-output', 'e2e-runtimes');
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;
const children: ChildProcess[] = [];

// A missing tool skips through the runner (counted as skipped, with skipOrFail's printed reason); under CI=true skipOrFail fails instead.
beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip =
    skipOrFail(chromiumMissingReason(), 'browser tests of recording each runtime') ||
    skipOrFail(await dotnetMissingReason(), 'browser tests of recording each runtime');
  if (skip) return;
  await buildWorkload();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  server = await serve(join(OUT, 'e2e.db'));
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => {
    throw e;
  });
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await browser?.close();
  await server?.stop();
});

describe('recording each runtime from the browser', () => {
  for (const runtime of RUNTIMES) {
    const major = runtimeMajor(runtime);
    it(`.NET ${major}: listed with its version, recorded live with the version in the session header${major < 9 ? ", and the runtime's limits said when recording starts" : ', with nothing to warn about'}`, async () => {
      const w = startWorkload({ runtime, mode: 'concurrent', args: ['--scenario', 'churn,survivors', '--seconds', '30', '--pause-ms', '30'] }, children);
      const ready = await w.ready;
      try {
        await page.goto(server.url);
        const row = page.locator(`[data-testid=process-row][data-pid="${ready.pid}"]`);
        await row.waitFor({ timeout: 20000 });
        expect(await row.textContent()).toContain(ready.runtime);
        await row.locator('[data-testid=record-button]').click();
        await page.waitForSelector('[data-testid=live-status]', { timeout: 20000 });
        await page.waitForFunction(
          () => Number((document.querySelector('[data-testid=gc-row-count]')?.textContent ?? '0').split(' ')[0]!.replace(/,/g, '')) > 5,
          undefined,
          { timeout: 20000 },
        );
        expect(await page.textContent('[data-testid=session-view]')).toContain(`.NET ${ready.runtime}`);
        const info = page.locator('[data-testid=toast-info]');
        if (major < 9) {
          await info.waitFor({ timeout: 5000 });
          const text = (await info.textContent()) ?? '';
          expect(text).toContain(`GcWorkload (.NET ${ready.runtime})`);
          expect(text).toContain('stacks are collected (turning them off needs .NET 9 or later)');
          expect(text).toContain('the session ends with the full rundown of methods and modules, not only the GC settings');
          await page.screenshot({ path: join(OUT, `net${major}-recording-1280x800.png`) });
          await page.setViewportSize({ width: 1920, height: 1080 });
          await page.screenshot({ path: join(OUT, `net${major}-recording-1920x1080.png`) });
          await page.setViewportSize({ width: 1280, height: 800 });
        } else {
          expect(await info.count()).toBe(0);
          await page.screenshot({ path: join(OUT, `net${major}-recording-1280x800.png`) });
        }
        w.child.kill('SIGKILL');
        await page.waitForSelector('[data-testid=session-status]', { timeout: 30000 });
        expect(await page.textContent('[data-testid=session-status]')).toBe('complete');
      } finally {
        if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      }
    });
  }
});
