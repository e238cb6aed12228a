/// <reference lib="dom" />
/**
 * A long stored session in a real browser (`gcscope serve`, Chromium): 25,000 GCs, more than the
 * lanes draw at once. Opened whole, the lanes are decimated (spikes kept); zoomed in, every GC of
 * the window is drawn, as many marks as the table lists for the range.
 * The session is the real workload-concurrent trace's GCs repeated with shifted times (as
 * bench/ui.ts builds its 100,000-GC session).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allowDelayedCalls, chromiumMissingReason, dragAcrossLane, launchBrowser, sampleLanePositions, serve, type Served } from '../helpers/browser.js';
import { skipOrFail } from '../helpers/environment.js';
import { writeRepeatedSession } from '../helpers/long-session.js';

const OUT = join(process.cwd(), 'test-output', 'e2e-long-session');
const N = 25_000;
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'long-session end-to-end test');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const dbPath = join(OUT, 'long.db');
  await writeRepeatedSession(dbPath, N);
  server = await serve(dbPath);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 960 } });
  await allowDelayedCalls(page);
  page.on('pageerror', (e) => {
    throw e;
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const lane = (): Promise<{ points: number; inView: number; min: number; max: number }> =>
  page.evaluate(() => {
    const e = document.querySelector<HTMLElement>('[data-testid=chart-pauses]')!;
    return { points: Number(e.dataset.points), inView: Number(e.dataset.pointsInView), min: Number(e.dataset.xMin), max: Number(e.dataset.xMax) };
  });
const rows = async (): Promise<number> => Number(((await page.textContent('[data-testid=gc-row-count]')) ?? '').split(' ')[0]!.replace(/,/g, ''));

describe('a long session in a real browser', () => {
  it('zoomed in on 25,000 GCs, the pause lane draws every GC of the window: as many marks as the table lists', async () => {
    await page.goto(`${server.url}#/session/1`);
    await page.waitForFunction(() => Number(document.querySelector<HTMLElement>('[data-testid=chart-pauses]')?.dataset.points ?? 0) > 0, undefined, {
      timeout: 60_000,
    });
    // The findings arrive after the lanes and move them down: drag once they are there.
    await page.waitForFunction(() => document.querySelector('[data-testid=findings-count]')?.textContent?.includes('whole session') === true, undefined, {
      timeout: 60_000,
    });
    await page.locator('[data-testid=chart-pauses]').scrollIntoViewIfNeeded();
    const whole = await lane();
    // Opened whole: decimated, not every GC.
    expect(whole.points).toBeGreaterThan(1000);
    expect(whole.points).toBeLessThan(N);
    // The session's view (~2.5 MB) came as a large answer, fetched over HTTP (web/server.ts).
    expect(
      await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/answer/')).length),
    ).toBeGreaterThan(0);
    // Drag across 2 % of the session in the middle.
    await dragAcrossLane(page, 'chart-pauses', 0.5, 0.52);
    await page.waitForFunction(() => /^[\d,]+ of 25,000/.test(document.querySelector('[data-testid=gc-row-count]')?.textContent ?? ''));
    const inRange = await rows();
    expect(inRange).toBeGreaterThan(100);
    expect(inRange).toBeLessThan(N / 10);
    // Once the zoom has settled the lanes are rebuilt for the window: every GC of the range drawn.
    await page
      .waitForFunction((n) => Number(document.querySelector<HTMLElement>('[data-testid=chart-pauses]')?.dataset.pointsInView) === n, inRange, {
        timeout: 10_000,
      })
      .catch(() => undefined);
    expect((await lane()).inView).toBe(inRange);
    // Reset: the whole session again, decimated as at first.
    await page.click('[data-testid=reset-zoom]');
    await page
      .waitForFunction((p) => Number(document.querySelector<HTMLElement>('[data-testid=chart-pauses]')?.dataset.points) === p, whole.points, {
        timeout: 10_000,
      })
      .catch(() => undefined);
    expect((await lane()).points).toBe(whole.points);
  }, 90_000);

  it("opened again in the page, it is drawn decimated as the first time, and its lanes stay where they were first drawn while the findings and the tiles' numbers (which wrap) arrive", async () => {
    await page.goto(`${server.url}#/session/1`);
    await page.waitForFunction(() => document.querySelector('[data-testid=findings-count]')?.textContent?.includes('whole session') === true, undefined, {
      timeout: 60_000,
    });
    const first = await lane();
    await page.evaluate(() => (location.hash = '#/'));
    await page.waitForSelector('[data-testid=home]');
    // Both answers come 1.5 s late, long after the first chart. (Without the tiles' reserve the
    // lanes moved 16 px here: the tiles' lines wrap once 25,000 GCs' numbers are in, not "n/a".)
    await page.evaluate(() => ((window as unknown as { __delay: Record<string, number> }).__delay = { getFindings: 1500, getRangeSummary: 1500 }));
    const sampled = sampleLanePositions(page);
    await page.evaluate(() => (location.hash = '#/session/1'));
    const frames = await sampled;
    await page.evaluate(() => delete (window as unknown as { __delay?: unknown }).__delay);
    expect(frames[0]!.findings || frames[0]!.tiles).toBe(false);
    const tops = frames.map((f) => f.top);
    expect(Math.max(...tops) - Math.min(...tops), JSON.stringify(frames.filter((f, i) => i === 0 || f.top !== frames[i - 1]!.top))).toBeLessThanOrEqual(1.5);
    // Drawn as the first time, decimated: reopened in the page, the lanes once took every GC.
    expect(first.points).toBeLessThan(N);
    expect(await lane()).toEqual(first);
  }, 90_000);

  it('writes GC numbers (table and GC detail) and per-generation counts from 1,000 up with thousands separators', async () => {
    await page.goto(`${server.url}#/session/1`);
    await page.waitForFunction(() => document.querySelector('[data-testid=gc-row-count]')?.textContent === '25,000 of 25,000 GCs', undefined, {
      timeout: 60_000,
    });
    // The newest GCs first: their numbers are in the tens of thousands.
    await page.click('[data-testid=sort-number]');
    if (!(await page.textContent('[data-testid=sort-number]'))!.includes('▼')) await page.click('[data-testid=sort-number]');
    const first = (await page.locator('[data-testid=gc-row]').first().locator(':scope > span').first().textContent())!.trim();
    expect(first).toMatch(/^\d{1,3}(,\d{3})+$/);
    // The GC detail names the GC as the table does.
    await page.locator('[data-testid=gc-row]').first().click();
    await page.waitForFunction((n) => document.querySelector('[data-testid=gc-detail] h3')?.textContent?.startsWith(`GC #${n} `), first);
    await page.keyboard.press('Escape');
    const badges = await page.locator('[data-testid=summary] .tile .badge').allTextContents();
    expect(
      badges.some((b) => /^gen0 \d{1,3}(,\d{3})+$/.test(b.trim())),
      badges.join(' | '),
    ).toBe(true);
  }, 90_000);

  it('zoomed in on a window too long to draw whole (40 % of 25,000 GCs), the lanes draw it decimated afresh: more marks than the whole-session view gave it', async () => {
    await page.click('[data-testid=reset-zoom]');
    const whole = await lane();
    await dragAcrossLane(page, 'chart-pauses', 0.3, 0.7);
    await page.waitForFunction(() => /^[\d,]+ of 25,000/.test(document.querySelector('[data-testid=gc-row-count]')?.textContent ?? ''));
    const inRange = await rows();
    // More GCs than the lanes draw whole (6,000).
    expect(inRange).toBeGreaterThan(6000);
    // The whole session's decimation gives this window its share of the points, about 40 %.
    const share = whole.points * (inRange / N);
    await page
      .waitForFunction((s) => Number(document.querySelector<HTMLElement>('[data-testid=chart-pauses]')?.dataset.pointsInView) > s * 1.5, share, {
        timeout: 10_000,
      })
      .catch(() => undefined);
    const zoomed = await lane();
    expect(zoomed.inView).toBeGreaterThan(share * 1.5);
    expect(zoomed.inView).toBeLessThan(inRange);
  }, 90_000);
});
