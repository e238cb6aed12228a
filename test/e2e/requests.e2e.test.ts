/// <reference lib="dom" />
/**
 * The Requests lane (issue 42) as a user sees it, in real Chromium through `gcscope serve`, on the
 * real ASP.NET Core trace (fixtures/traces/aspnet-requests.nettrace) imported with `gcscope
 * import`: the lane and its tiles are there with the numbers `gcscope requests` gives for the same
 * requests; selecting a range recomputes them; clicking the request a GC paused names that GC, and opening it lists the request in
 * the GC's detail. A range with requests and no GC has the request-tail-gc answer in the findings
 * (the tail is not the GC's doing). A session without request events shows no lane. Screenshots at 1280×800 and
 * 1920×1080 go to test-output/requests-e2e/.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatMs, formatPercent } from '../../src-main/shared/format.js';
import { chromiumMissingReason, dragAcrossLane, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { TRACES } from '../helpers/fixtures.js';

const OUT = join(process.cwd(), 'test-output', 'requests-e2e');
const TRACE = TRACES + 'aspnet-requests.nettrace';
const NO_REQUESTS = TRACES + 'HeartRateMonitor.10068.nettrace.zip';
let skip = false;
let browser: Browser;
let server: Served;
const sessionOf: Record<string, number> = {};

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'Requests lane end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const db = join(OUT, 'requests.db');
  for (const t of [TRACE, NO_REQUESTS]) {
    const r = await runCli(['import', t, '--db', db, '--json']);
    expect(r.code, r.stderr).toBe(0);
    sessionOf[t] = (JSON.parse(r.stdout) as { sessionId: number }).sessionId;
  }
  // request-tail-gc judges any number of requests here (default: 50 or more), so a small selected range has an answer.
  writeFileSync(`${db}.diagnosis.json`, JSON.stringify({ 'request-tail-gc.minRequests': 1 }));
  server = await serve(db);
  browser = await launchBrowser();
}, 120000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(trace: string, width: number, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.goto(server.url);
  await page.evaluate((id) => (location.hash = `#/session/${id}`), sessionOf[trace]!);
  await page.waitForSelector('[data-testid=lane-pauses]');
  return page;
}

describe('the Requests lane', () => {
  it('shows every request with the p99 latency and the GC share of the slowest 1 % that gcscope requests gives', async () => {
    const cli = JSON.parse((await runCli(['requests', TRACE, '--format', 'json'])).stdout) as {
      count: number;
      p99LatencyMSec: number;
      gcShareOfSlowest1Percent: number;
    };
    for (const [w, h] of [
      [1280, 800],
      [1920, 1080],
    ] as const) {
      const page = await open(TRACE, w, h);
      const lane = page.locator('[data-testid=lane-requests]');
      await lane.waitFor();
      await lane.scrollIntoViewIfNeeded();
      // The whole recording in view: the tiles are over all 41 requests.
      await expect.poll(() => page.locator('[data-testid=tile-gc-share-slowest]').innerText()).toContain(`of ${cli.count} requests`);
      expect(await page.locator('[data-testid=tile-p99-latency] strong').innerText()).toBe(formatMs(cli.p99LatencyMSec));
      expect(await page.locator('[data-testid=tile-gc-share-slowest] strong').innerText()).toBe(formatPercent(100 * cli.gcShareOfSlowest1Percent));
      // The latency axis is labelled at each decade it spans (it said only its two ends), top down,
      // each label beside its height on the log scale.
      const canvas = page.locator('[data-testid=chart-requests]');
      const [lo, hi] = [Number(await canvas.getAttribute('data-ylo')), Number(await canvas.getAttribute('data-yhi'))];
      const box = (await canvas.boundingBox())!;
      const labels = await page
        .locator('[data-testid=requests-axis-label]')
        .evaluateAll((els) => els.map((e) => ({ text: e.textContent!, mid: e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2 })));
      expect(hi - lo).toBeGreaterThanOrEqual(2);
      expect(labels.length).toBe(hi - lo + 1);
      const unit = (k: number): string => (k >= 3 ? `${10 ** (k - 3)} s` : k >= 0 ? `${10 ** k} ms` : `${10 ** (k + 3)} µs`);
      labels.forEach((l, i) => {
        const k = hi - i;
        expect(l.text).toBe(unit(k));
        expect(Math.abs(l.mid - (box.y + box.height - 4 - ((k - lo) / (hi - lo)) * (box.height - 8)))).toBeLessThan(2);
      });
      await page.screenshot({ path: join(OUT, `requests-${w}x${h}.png`) });
      await page.close();
    }
  });

  it('clicking the request GC #1 paused names it; opening GC #1 lists that request in its detail', async () => {
    const cli = JSON.parse((await runCli(['requests', TRACE, '--format', 'json'])).stdout) as {
      requests: { startMSec: number; durationMSec: number; gcPauseMSec: number; gcNumbers: number[] }[];
    };
    const paused = cli.requests.find((q) => q.gcNumbers.includes(1))!;
    const page = await open(TRACE, 1280, 800);
    const t0 = Number(await page.locator('[data-testid=lanes]').getAttribute('data-t0'));
    const canvas = page.locator('[data-testid=chart-requests]');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    // Where the lane draws it: x from the window shown (seconds since t0), y from its latency on the log axis.
    const attr = async (a: string): Promise<number> => Number(await canvas.getAttribute(a));
    const [xmin, xmax, ylo, yhi] = [await attr('data-xmin'), await attr('data-xmax'), await attr('data-ylo'), await attr('data-yhi')];
    const x = ((paused.startMSec - t0) / 1000 - xmin) / (xmax - xmin);
    const y = box.height - 4 - ((Math.log10(paused.durationMSec) - ylo) / (yhi - ylo)) * (box.height - 8);
    await page.mouse.click(box.x + x * box.width + 0.5, box.y + y);
    const picked = await page.locator('[data-testid=picked-request]').innerText();
    expect(picked).toContain('GET /alloc');
    expect(picked).toContain(`GC pause inside it ${formatMs(paused.gcPauseMSec)}`);
    await page.locator('[data-testid=open-request-gc]', { hasText: 'GC #1' }).click();
    const gcRequests = page.locator('[data-testid=gc-requests]');
    await gcRequests.waitFor();
    expect(await gcRequests.innerText()).toMatch(/^1 request in flight, stopped/);
    expect(await gcRequests.innerText()).toContain(`GET /alloc`);
    await page.screenshot({ path: join(OUT, 'gc-detail-requests-1280x800.png') });
    await page.close();
  });

  it('selecting a range recomputes the tiles over the requests started in it', async () => {
    const page = await open(TRACE, 1280, 800);
    const tile = page.locator('[data-testid=tile-gc-share-slowest]');
    await tile.waitFor();
    await expect.poll(() => tile.innerText()).toContain('of 41 requests in view');
    // The requests came in the trace's first seconds (of 800): a range over its first 0.45 % holds some of them.
    await dragAcrossLane(page, 'lane-pauses', 0, 0.0045);
    await expect.poll(() => tile.innerText()).toContain('in the selected range');
    const n = Number(/of (\d+) requests/.exec(await tile.innerText())![1]);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(41);
    await page.close();
  });

  it('a selected range with requests and no GC: the findings say the tail is not the GC’s doing, over the requests the tile counts', async () => {
    const page = await open(TRACE, 1280, 800);
    const tile = page.locator('[data-testid=tile-gc-share-slowest]');
    await expect.poll(() => tile.innerText()).toContain('of 41 requests in view');
    // The first GC comes at 4.2 s, after the first 34 requests: a range over the trace's first 0.45 % holds requests and no GC.
    await dragAcrossLane(page, 'lane-pauses', 0, 0.0045);
    await expect.poll(() => tile.innerText()).toContain('in the selected range');
    const n = Number(/of (\d+) requests/.exec(await tile.innerText())![1]);
    expect(n).toBeGreaterThan(0);
    expect(await tile.locator('strong').innerText()).toBe(formatPercent(0));
    const answer = page.locator('[data-testid=findings-without-gc]');
    await expect.poll(() => answer.innerText().catch(() => ''), { timeout: 15_000 }).toContain(`no GC paused the process while these ${n} requests ran`);
    expect(await answer.innerText()).toContain("the tail is not the GC's doing");
    expect(await page.locator('[data-testid=findings-count]').innerText()).toContain('0 GCs');
    await page.screenshot({ path: join(OUT, 'no-gc-range-1280x800.png') });
    await page.close();
  });

  it('a session without request events has no Requests lane', async () => {
    const page = await open(NO_REQUESTS, 1280, 800);
    await page.waitForTimeout(500);
    expect(await page.locator('[data-testid=lane-requests]').count()).toBe(0);
    await page.close();
  });
});
