/// <reference lib="dom" />
/**
 * Which requests did a long gen2 delay (issue 42), as a new user finds out, in real Chromium through
 * `gcscope serve`: a real ASP.NET Core app (test/workloads/RequestsApp) runs with a pause-heavy GC
 * (workstation, non-concurrent, small gen0 budget, 50 MB kept alive so gen2 GCs mark a lot) under
 * load this test sends all along. From the home list the user picks the app, records it with the
 * requests profile, watches the Requests lane fill — pushed with the live batches, as the GC lanes
 * are, not fetched again —, stops, finds the longest gen2 in the GC table
 * (gen2 only, slowest pause first), opens it, sees the requests it paused in its detail, opens one
 * (picked in the Requests lane, with its GC time and the GCs that paused it), and reads the "GC share
 * of slowest 1 %" tile. Everything shown equals what `gcscope requests --session ID --format json`
 * says of the same session. Screenshots at 1280×800 and 1920×1080 go to test-output/requests-journey/.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatInt, formatMs, formatPercent } from '../../src-main/shared/format.js';
import { chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { dotnetMissingReason } from '../workloads/workload.js';
import { buildRequestsApp, PAUSE_HEAVY_GC, sendLoad, startRequestsApp, type RunningApp } from '../workloads/requests-app.js';

const OUT = join(process.cwd(), 'test-output', 'requests-journey');
const DB = join(OUT, 'journey.db');
let skip = false;
let browser: Browser;
let server: Served;
let app: RunningApp;
const children: ChildProcess[] = [];

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason() ?? (await dotnetMissingReason()), 'the which-requests-did-the-GC-delay journey in the browser');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  await buildRequestsApp();
  app = await startRequestsApp({ ...PAUSE_HEAVY_GC, REQUESTS_APP_LIVE_MB: '50' }, children);
  // Warm-up before anyone records: JIT and thread-pool growth are not what this is about.
  await sendLoad(app.url, ['/alloc?kb=256', '/fast'], 80, 8);
  server = await serve(DB);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

interface RequestsJson {
  count: number;
  p99LatencyMSec: number;
  gcShareOfSlowest1Percent: number;
  requests: { startMSec: number; durationMSec: number; gcPauseMSec: number; gcNumbers: number[]; name: string }[];
  gcs: { gcNumber: number; generation: number; pauseStartMSec: number; pauseMSec: number; requests: number; requestDelayMSec: number }[];
}

/** The tile's request count: "of 1,234 requests in view". */
async function tileCount(page: Page): Promise<number> {
  const t = await page
    .locator('[data-testid=tile-gc-share-slowest]')
    .innerText()
    .catch(() => '');
  const m = /of ([\d,]+) requests/.exec(t);
  return m === null ? 0 : Number(m[1]!.replace(/,/g, ''));
}

describe('which requests did a long gen2 delay, from the app', () => {
  it('record a web app under load from the app, see which requests the longest gen2 delayed, open one, and read the tail-latency share', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => {
      throw e;
    });
    // Every getRequestSpans the page sends (the bridge's frames name their method): the lane is fetched once, then grows with the live batches.
    let fetches = 0;
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => {
        if (String(f.payload).includes('"getRequestSpans"')) fetches++;
      }),
    );
    await page.goto(server.url);
    let sessionId = 0;
    const seen: number[] = [];

    // The web app is under load all along, as a service in production is: one request in four allocates 256 KB and a
    // 1 MB array (gen2 GCs from the LOH budget), over 8 connections, from before the recording until after it.
    const paths = ['/alloc?kb=256&lohkb=1024', '/fast', '/fast', '/fast'];
    let loading = true;
    let failed = 0;
    const load = (async () => {
      while (loading) failed += (await sendLoad(app.url, paths, 200, 8)).failed;
    })();
    try {
      // Home: the app is in the list of running .NET processes; record it with the requests profile.
      await page.selectOption('[data-testid=profile-select]', 'gc-requests');
      expect(await page.locator('[data-testid=profile-cost]').innerText()).toContain('request');
      const row = page.locator(`[data-testid=process-row][data-pid="${app.pid}"]`);
      await row.waitFor({ timeout: 30_000 });
      await page.screenshot({ path: join(OUT, 'home-1280x800.png') });
      await row.locator('[data-testid=record-button]').click();
      await page.waitForSelector('[data-testid=live-status]', { timeout: 30_000 });
      sessionId = Number(/#\/session\/(\d+)/.exec(page.url())![1]);
      // The Requests lane appears with the first requests and its count grows batch after batch while recording.
      await page.locator('[data-testid=lane-requests]').waitFor({ timeout: 30_000 });
      await page.locator('[data-testid=lane-requests]').scrollIntoViewIfNeeded();
      const until = Date.now() + 8000;
      while (Date.now() < until) {
        const n = await tileCount(page);
        if (n > 0 && n !== seen.at(-1)) seen.push(n);
        await page.waitForTimeout(100);
      }
      await page.screenshot({ path: join(OUT, 'live-1280x800.png') });
      expect(seen.length, `the tile's counts while recording: ${seen.join(', ')}`).toBeGreaterThanOrEqual(8);
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
      // Once: the lane grew from the live batches, not from fetching it again.
      expect(fetches).toBe(1);
      await page.click('[data-testid=stop-recording]');
      await expect
        .poll(
          () =>
            page
              .locator('[data-testid=session-status]')
              .innerText()
              .catch(() => ''),
          { timeout: 30_000 },
        )
        .toBe('complete');
    } finally {
      loading = false;
      await load;
    }
    expect(failed).toBe(0);

    const r = await runCli(['requests', '--session', String(sessionId), '--db', DB, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const cli = JSON.parse(r.stdout) as RequestsJson;
    expect(cli.count).toBeGreaterThan(seen.at(-1)!);
    // What the live lane ended with is the stored session's: all its requests (the lane holds them all), and with the whole
    // recording in view the tiles are the CLI's.
    const canvas = page.locator('[data-testid=chart-requests]');
    await expect.poll(async () => Number(await canvas.getAttribute('data-count'))).toBe(cli.count);
    const lastStart = Math.max(...cli.requests.map((q) => q.startMSec));
    const t0 = Number(await page.locator('[data-testid=lanes]').getAttribute('data-t0'));
    console.log(
      `after stop: window ${await canvas.getAttribute('data-xmin')}–${await canvas.getAttribute('data-xmax')} s, last request starts at ${(lastStart - t0) / 1000} s; tile ${await tileCount(page)}`,
    );
    await page.click('[data-testid=reset-zoom]');
    await expect.poll(() => tileCount(page)).toBe(cli.count);
    expect(await page.locator('[data-testid=tile-p99-latency] strong').innerText()).toBe(formatMs(cli.p99LatencyMSec));
    expect(await page.locator('[data-testid=tile-gc-share-slowest] strong').innerText()).toBe(formatPercent(100 * cli.gcShareOfSlowest1Percent));

    // The longest gen2, as a user finds it: gen2 only in the GC table, slowest pause first.
    const gen2 = cli.gcs.filter((g) => g.generation === 2).sort((a, b) => b.pauseMSec - a.pauseMSec)[0];
    expect(gen2, `GCs: ${JSON.stringify(cli.gcs.map((g) => [g.gcNumber, g.generation]))}`).toBeDefined();
    expect(gen2!.requests, 'the longest gen2 paused requests in flight').toBeGreaterThan(0);
    await page.uncheck('[data-testid=filter-gen0]');
    await page.uncheck('[data-testid=filter-gen1]');
    await page.click('[data-testid=sort-pause]');
    const firstRow = page.locator('[data-testid=gc-row]').first();
    if (!(await firstRow.innerText()).includes(formatInt(gen2!.gcNumber))) await page.click('[data-testid=sort-pause]');
    await firstRow.click();
    const detail = page.locator('[data-testid=gc-detail]');
    await expect.poll(() => detail.locator('h3').innerText()).toContain(`GC #${formatInt(gen2!.gcNumber)}`);

    // Its detail lists the requests it paused: as many as the CLI counts for it, slowest first.
    const list = detail.locator('[data-testid=gc-requests]');
    await list.scrollIntoViewIfNeeded();
    expect(await list.innerText()).toMatch(new RegExp(`^${formatInt(gen2!.requests)} requests? in flight, stopped`));
    const pausedByIt = cli.requests
      .filter((q) => q.gcNumbers.includes(gen2!.gcNumber))
      .sort((a, b) => b.durationMSec - a.durationMSec || a.startMSec - b.startMSec);
    expect(pausedByIt).toHaveLength(gen2!.requests);
    // And the requests that started just after it ended, some of which had likely waited through it unread in their sockets.
    const end = gen2!.pauseStartMSec + gen2!.pauseMSec;
    const queued = cli.requests.filter((q) => q.startMSec >= end && q.startMSec < end + 2).length;
    if (queued > 0)
      expect(await list.locator('[data-testid=gc-requests-queued]').innerText()).toMatch(
        new RegExp(`^${formatInt(queued)} more requests? started within 2 ms after the pause ended`),
      );
    else expect(await list.locator('[data-testid=gc-requests-queued]').count()).toBe(0);
    await page.screenshot({ path: join(OUT, 'gen2-detail-1280x800.png') });

    // Open the slowest of them: picked in the Requests lane with its latency, its GC time and the GCs that paused it.
    const q = pausedByIt[0]!;
    await list.locator('[data-testid=gc-request]').first().click();
    const picked = page.locator('[data-testid=picked-request]');
    await picked.waitFor();
    const text = await picked.innerText();
    expect(text).toContain(q.name);
    expect(text).toContain(`latency ${formatMs(q.durationMSec)}`);
    expect(text).toContain(`GC pause inside it ${formatMs(q.gcPauseMSec)}`);
    for (const n of q.gcNumbers) expect(text).toContain(`GC #${formatInt(n)}`);
    await page.locator('[data-testid=lane-requests]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, 'picked-request-1280x800.png') });

    // The tail-latency share: the tile over the whole recording is the CLI's.
    expect(await page.locator('[data-testid=tile-gc-share-slowest] strong').innerText()).toBe(formatPercent(100 * cli.gcShareOfSlowest1Percent));
    console.log(
      `journey: ${cli.count} requests (tile counts while recording: ${seen.join(', ')}), p99 ${formatMs(cli.p99LatencyMSec)}, GC share of the slowest 1 % ${formatPercent(100 * cli.gcShareOfSlowest1Percent)}; longest gen2 GC #${gen2!.gcNumber} paused ${formatMs(gen2!.pauseMSec)} and ${gen2!.requests} requests in flight; ${queued} started within 2 ms after it`,
    );
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(OUT, 'picked-request-1920x1080.png') });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(OUT, 'session-1920x1080.png') });
    await page.close();
  });
});
