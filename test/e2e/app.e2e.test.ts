/// <reference lib="dom" />
/**
 * End to end in a real browser (Debian's Chromium via playwright-core) against `gcscope serve`:
 * open a fixture trace and check the charts and the numbers against `report --format json`,
 * sort and filter the GC table, open a GC's detail, open the sample trace, attach live to the
 * workload and watch GCs arrive until it exits, and see a corrupt file's error. Each scenario
 * saves a screenshot under test-output/e2e/ (the README's screenshots in docs/ come from these).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatMs } from '../../src-main/shared/format.js';
import { chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { TRACES, traceBytes } from '../helpers/fixtures.js';
import { buildWorkload, dotnetMissingReason, GEN0_BUDGET_ENV, WORKLOAD_DLL } from '../workloads/workload.js';

const OUT = join(process.cwd(), 'test-output', 'e2e');
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;

async function shot(name: string): Promise<void> {
  // From the top: a full-page capture draws the sticky header where the viewport was scrolled to.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
}

async function openHome(): Promise<void> {
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=home]');
}

async function uploadTrace(path: string, name: string): Promise<void> {
  await page.setInputFiles('[data-testid=file-input]', { name, mimeType: 'application/octet-stream', buffer: Buffer.from(traceBytesOrFile(path)) });
}

function traceBytesOrFile(path: string): Uint8Array {
  return traceBytes(path);
}

// A missing tool skips through the runner (counted as skipped, with skipOrFail's printed reason); under CI=true skipOrFail fails instead.
beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'browser end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  server = await serve(join(OUT, 'e2e.db'));
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 960 } });
  page.on('pageerror', (e) => {
    throw e;
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the app in a real browser', () => {
  it('opens a fixture trace: charts render, and the GC count and max pause equal report --format json', async () => {
    await openHome();
    await shot('home');
    await uploadTrace('workload-server.nettrace.zip', 'workload-server.nettrace.zip');
    await page.waitForSelector('[data-testid=session-view]', { timeout: 30000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=tile-gc-count]')?.textContent?.trim() !== 'n/a');
    for (const lane of ['lane-pauses', 'lane-heap', 'lane-rates']) {
      expect(await page.locator(`[data-testid=${lane}] canvas`).count()).toBeGreaterThan(0);
    }
    const report = JSON.parse((await runCli(['report', '--json', TRACES + 'workload-server.nettrace.zip'])).stdout) as {
      summary: { gcCount: number; maxPauseMSec: number; pauseP99MSec: number; processDurationMSec: number };
    };
    expect(await page.textContent('[data-testid=tile-gc-count]')).toBe(report.summary.gcCount.toLocaleString('en-US'));
    expect(await page.textContent('[data-testid=tile-max-pause]')).toBe(formatMs(report.summary.maxPauseMSec));
    // The percentiles tile's big number is its p99, and its label says so.
    expect(await page.textContent('[data-testid=tile-pause-p99]')).toBe(formatMs(report.summary.pauseP99MSec));
    expect(await page.locator('[data-testid=tile-pause-p99]').locator('xpath=..').locator('.label').textContent()).toBe('Pause p99');
    // The % paused tile says what it is over: the span report's % is computed over.
    expect(await page.textContent('[data-testid=tile-paused-over]')).toBe(`of ${formatMs(report.summary.processDurationMSec)}`);
    expect(await page.textContent('[data-testid=gc-row-count]')).toBe(`${report.summary.gcCount} of ${report.summary.gcCount} GCs`);
    await shot('session');
  });

  it('sorts and filters the GC table', async () => {
    const rows = page.locator('[data-testid=gc-row]');
    await page.click('[data-testid=sort-pause]');
    const pauses = await rows.evaluateAll((els) => els.map((e) => Number(e.children[4]!.textContent)));
    expect(pauses.length).toBeGreaterThan(3);
    expect(pauses).toEqual([...pauses].sort((a, b) => b - a));
    await page.click('[data-testid=sort-pause]');
    const asc = await rows.evaluateAll((els) => els.map((e) => Number(e.children[4]!.textContent)));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    // Only gen2.
    await page.uncheck('[data-testid=filter-gen0]');
    await page.uncheck('[data-testid=filter-gen1]');
    const gens = await rows.evaluateAll((els) => els.map((e) => e.children[1]!.textContent!.trim()[0]));
    expect(gens.length).toBeGreaterThan(0);
    expect(new Set(gens)).toEqual(new Set(['2']));
    await page.check('[data-testid=filter-gen0]');
    await page.check('[data-testid=filter-gen1]');
    // Pause at least 1 ms.
    await page.fill('[data-testid=filter-min-pause]', '1');
    const long = await rows.evaluateAll((els) => els.map((e) => Number(e.children[4]!.textContent)));
    expect(long.every((p) => p >= 1)).toBe(true);
    await page.fill('[data-testid=filter-min-pause]', '0');
  });

  it("opens a GC's detail with per-heap data for Server GC", async () => {
    await page.click('[data-testid=sort-number]');
    await page.locator('[data-testid=gc-row]').first().click();
    await page.waitForSelector('[data-testid=gc-detail] h3');
    expect(await page.textContent('[data-testid=gc-detail] h3')).toMatch(/^GC #\d+/);
    expect(await page.locator('[data-testid=per-heap] tbody tr').count()).toBe(2);
    await shot('gc-detail');
  });

  it('shows survival and movement when the trace has it: a lane, two table columns and the GC detail', async () => {
    await openHome();
    await uploadTrace('eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip', 'survival.nettrace.zip');
    await page.waitForSelector('[data-testid=lane-survival] canvas', { timeout: 30000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=gc-row-count]')?.textContent === '478 of 478 GCs');
    expect(await page.textContent('[data-testid=sort-moved]')).toContain('Moved MB');
    await page.click('[data-testid=sort-number]');
    await page.locator('[data-testid=gc-row]').first().click();
    // GC #1 (report: compacting, 142 moved ranges, 0.175504 MB).
    await page.waitForSelector('[data-testid=detail-survival]');
    expect(await page.textContent('[data-testid=detail-survival]')).toMatch(/moved 176 KB in 142 ranges/);
    await shot('survival');
    // A trace recorded without the keyword says so instead of showing zeros.
    await openHome();
    await page.click('[data-testid=open-sample]');
    await page.waitForFunction(() => document.querySelector('[data-testid=gc-row-count]')?.textContent === '38 of 38 GCs', undefined, { timeout: 30000 });
    expect(await page.locator('[data-testid=lane-survival]').count()).toBe(0);
    await page.locator('[data-testid=gc-row]').first().click();
    await page.waitForSelector('[data-testid=detail-survival]');
    expect(await page.textContent('[data-testid=detail-survival]')).toMatch(/not in this trace \(record with gc-survival\)/);
  });

  it('opens the sample trace shipped in assets/', async () => {
    await openHome();
    await page.click('[data-testid=open-sample]');
    await page.waitForSelector('[data-testid=session-view]', { timeout: 30000 });
    await page.waitForFunction(() => (document.querySelector('h2')?.textContent ?? '').startsWith('Sample'));
    await page.waitForFunction(() => document.querySelector('[data-testid=gc-row-count]')?.textContent === '38 of 38 GCs');
  });

  it('shows a clear error for a corrupt file', async () => {
    await openHome();
    const bad = join(OUT, 'corrupt.nettrace');
    writeFileSync(bad, 'Nettrace but really not a trace at all');
    await page.setInputFiles('[data-testid=file-input]', bad);
    const toast = page.locator('[data-testid=toast-error]');
    await toast.waitFor({ timeout: 20000 });
    expect(await toast.textContent()).toMatch(/cannot be read as a \.NET trace/);
    await shot('corrupt-file');
  });

  it('attaches live to the workload: GCs appear while it runs, and the session ends when it exits', async (ctx) => {
    if (skipOrFail(await dotnetMissingReason(), 'live attach in the browser')) ctx.skip();
    await buildWorkload();
    const child = spawn('dotnet', [WORKLOAD_DLL, '--scenario', 'churn,survivors,bgc', '--seconds', '15', '--pause-ms', '30'], {
      env: { ...process.env, DOTNET_gcServer: '0', DOTNET_gcConcurrent: '1', ...GEN0_BUDGET_ENV },
      stdio: 'ignore',
    });
    try {
      await openHome();
      const row = page.locator(`[data-testid=process-row][data-pid="${child.pid}"]`);
      await row.waitFor({ timeout: 20000 });
      // Its command line shows the arguments (paths cut to file names: the dotnet host's and the
      // dll's full paths used the whole cell); the tooltip keeps the full line.
      expect(await row.locator('td.cmd').textContent()).toBe('dotnet GcWorkload.dll --scenario churn,survivors,bgc --seconds 15 --pause-ms 30');
      expect(await row.locator('td.cmd').getAttribute('title')).toContain(WORKLOAD_DLL);
      await row.locator('[data-testid=record-button]').click();
      await page.waitForSelector('[data-testid=live-status]', { timeout: 20000 });
      const count = async (): Promise<number> => Number(((await page.textContent('[data-testid=gc-row-count]')) ?? '0').split(' ')[0]!.replace(/,/g, ''));
      await page.waitForFunction(
        () => Number((document.querySelector('[data-testid=gc-row-count]')?.textContent ?? '0').split(' ')[0]!.replace(/,/g, '')) > 0,
        undefined,
        { timeout: 20000 },
      );
      const first = await count();
      await page.waitForTimeout(1500);
      const later = await count();
      expect(later).toBeGreaterThan(first);
      expect(await page.locator('[data-testid=lane-pauses] canvas').count()).toBeGreaterThan(0);
      // The GC mode shows while recording, not only once the session ends ("concurrent" from the
      // first background GC, which a machine under load may run several seconds in).
      await page.waitForFunction(() => /workstation, concurrent/.test(document.querySelector('[data-testid=session-view]')?.textContent ?? ''), undefined, {
        timeout: 12000,
      });
      expect(await page.locator('[data-testid=live-status]').count()).toBe(1);
      // The hard limit comes with the runtime's settings at the end of a recording: not yet.
      await page.waitForFunction(() => /no hard limit known yet/.test(document.querySelector('[data-testid=headroom-summary]')?.textContent ?? ''), undefined, {
        timeout: 10000,
      });
      await shot('live');
      // Leaving the view keeps the recording going, one click away in the top bar.
      await page.click('[data-testid=keep-in-background]');
      await page.waitForSelector('[data-testid=home]');
      // Its line among the recent sessions keeps counting (it stood still at the count it had
      // when the home screen opened).
      const recentGcs = async (): Promise<number> =>
        page.evaluate(() => {
          const li = Array.from(document.querySelectorAll('.recent li')).find((l) => l.querySelector('.badge')?.textContent === 'recording');
          return Number((li?.querySelector('[data-testid=recent-session-gcs]')?.textContent ?? '0').split(' ')[0]!.replace(/,/g, ''));
        });
      await page.waitForFunction(() => Array.from(document.querySelectorAll('.recent li .badge')).some((b) => b.textContent === 'recording'));
      const recentFirst = await recentGcs();
      await page.waitForFunction(
        (n) => {
          const li = Array.from(document.querySelectorAll('.recent li')).find((l) => l.querySelector('.badge')?.textContent === 'recording');
          return Number((li?.querySelector('[data-testid=recent-session-gcs]')?.textContent ?? '0').split(' ')[0]!.replace(/,/g, '')) > n;
        },
        recentFirst,
        { timeout: 8000 },
      );
      expect(await recentGcs()).toBeGreaterThan(recentFirst);
      await page.click('[data-testid=recording-chip]');
      await page.waitForSelector('[data-testid=session-view]');
      await page.waitForSelector('[data-testid=session-status]', { timeout: 30000 });
      expect(await page.textContent('[data-testid=session-status]')).toBe('complete');
      expect(await page.textContent('[data-testid=session-status-reason]')).toMatch(/process exited/);
      // The runtime sends its GC settings as it shuts down: once the session has ended, the lane
      // says what they say (this workload sets no hard limit), not "not known yet".
      await page.waitForFunction(
        () => /no hard limit configured/.test(document.querySelector('[data-testid=headroom-summary]')?.textContent ?? ''),
        undefined,
        { timeout: 10000 },
      );
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
