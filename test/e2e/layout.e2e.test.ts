/// <reference lib="dom" />
/**
 * Layout and wording a user checks by eye, in real Chromium through `gcscope serve` on real traces
 * imported with `gcscope import`, at 1280×800 and 1920×1080: the GC table's numeric headers sit
 * over their own values (right-aligned like them) at every width; the Sessions page's search
 * shows its whole placeholder; Home and Sessions write a session's date the same way; and the
 * Sessions page says which span its % paused is over. Screenshots go to test-output/layout/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { TRACES } from '../helpers/fixtures.js';

const OUT = join(process.cwd(), 'test-output', 'layout');
/** 478 GCs with survival and movement: the table's widest default set of columns. */
const LARGE = 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip';
/** 683 ms of events, GCs over 33.3 ms: % paused over a span much shorter than the trace. */
const WHO = 'who-allocates.nettrace.zip';
const SIZES = [
  [1280, 800],
  [1920, 1080],
] as const;
let skip = false;
let browser: Browser;
let server: Served;
const sessionOf: Record<string, number> = {};

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'layout end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const db = join(OUT, 'layout.db');
  for (const t of [LARGE, WHO]) {
    const r = await runCli(['import', TRACES + t, '--db', db, '--json']);
    expect(r.code, r.stderr).toBe(0);
    sessionOf[t] = (JSON.parse(r.stdout) as { sessionId: number }).sessionId;
  }
  server = await serve(db);
  browser = await launchBrowser();
}, 120000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function pageAt(width: number, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=home]');
  return page;
}

interface Cols {
  label: string;
  num: boolean;
  /** Left and right edges of the header's label text and of the first row's value text. */
  head: [number, number];
  cell: [number, number];
}

/** The text extents (not the boxes) of each header label and of the first row's cell below it. */
function columnExtents(page: Page): Promise<Cols[]> {
  return page.evaluate(() => {
    const textBox = (el: Element): [number, number] => {
      const r = document.createRange();
      r.selectNodeContents(el);
      const b = r.getBoundingClientRect();
      return [b.left, b.right];
    };
    const heads = Array.from(document.querySelectorAll('[data-testid=gc-table] .head button'));
    const row = document.querySelector('[data-testid=gc-row]')!;
    return heads.map((h, i) => {
      const label = h.querySelector('.label') ?? h;
      const cell = row.children[i]!;
      // Numeric: its values are right-aligned (the header must follow them).
      return {
        label: label.textContent!.replace(/[▲▼]/g, '').trim(),
        num: getComputedStyle(cell).textAlign === 'right',
        head: textBox(label),
        cell: textBox(cell),
      };
    });
  });
}

describe('layout at 1280×800 and 1920×1080', () => {
  it("the GC table's headers sit over their own values: numbers and their headers right-aligned, at every width", async () => {
    for (const [w, h] of SIZES) {
      const page = await pageAt(w, h);
      await page.evaluate((id) => (location.hash = `#/session/${id}`), sessionOf[LARGE]!);
      await page.waitForFunction(() => document.querySelector('[data-testid=gc-row-count]')?.textContent === '478 of 478 GCs', undefined, { timeout: 30000 });
      // Sorted by a numeric column: its arrow must not push the label off its values' edge.
      await page.click('[data-testid=sort-pause]');
      const cols = await columnExtents(page);
      expect(cols.map((c) => c.label)).toEqual(expect.arrayContaining(['GC#', 'Start s', 'Pause ms', 'After MB', 'Moved MB']));
      for (const c of cols) {
        if (c.num) {
          // Right edges within 2 px: the header ends where its numbers end.
          expect(Math.abs(c.head[1] - c.cell[1]), `${c.label} at ${w}: header ends at ${c.head[1]}, values at ${c.cell[1]}`).toBeLessThanOrEqual(2);
        } else {
          expect(Math.abs(c.head[0] - c.cell[0]), `${c.label} at ${w}: header starts at ${c.head[0]}, values at ${c.cell[0]}`).toBeLessThanOrEqual(12);
        }
      }
      expect(cols.filter((c) => c.num).length).toBeGreaterThanOrEqual(8);
      await page.locator('[data-testid=gc-table]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUT, `gc-table-${w}x${h}.png`) });
      await page.close();
    }
  });

  it('the Sessions page shows its whole search placeholder, and says which span % paused is over', async () => {
    for (const [w, h] of SIZES) {
      const page = await pageAt(w, h);
      await page.click('[data-testid=nav-library]');
      await page.waitForSelector('[data-testid=session-row]');
      const fit = await page.$eval('[data-testid=session-search]', (el) => {
        const input = el as HTMLInputElement;
        const cs = getComputedStyle(input);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = cs.font;
        const text = ctx.measureText(input.placeholder).width;
        const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        return { text, room, placeholder: input.placeholder };
      });
      expect(fit.placeholder).toBe('Search name, process, tags, notes…');
      expect(fit.text, `placeholder ${fit.text}px in ${fit.room}px at ${w}`).toBeLessThanOrEqual(fit.room);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w);
      const row = page.locator('[data-testid=session-row]', { has: page.locator(`text=${WHO}`) });
      expect(await row.locator('[data-testid=session-duration]').textContent()).toBe('683 ms');
      const paused = row.locator('[data-testid=session-paused]');
      expect((await paused.textContent())!.trim()).toBe('40.97 %of 33.3 ms');
      expect(await paused.getAttribute('title')).toMatch(
        /^13\.6 ms paused over 33\.3 ms: from the first GC to the last GC's heap statistics, .* not over the trace's 683 ms$/,
      );
      expect(await page.getAttribute('[data-testid=session-list] th:has-text("% paused")', 'title')).toMatch(/not the trace's Duration/);
      // Each row's line under it runs the table's whole width (the actions cell is a table cell, not a flex box).
      const short = await page.evaluate(() => {
        const table = document.querySelector('[data-testid=session-list] table, table.sessions')!.getBoundingClientRect();
        return Array.from(document.querySelectorAll('[data-testid=session-row] > td:last-child'))
          .map((td) => td.getBoundingClientRect().right)
          .filter((r) => r < table.right - 1);
      });
      expect(short, `rows ending short of the table at ${w}`).toEqual([]);
      await page.screenshot({ path: join(OUT, `sessions-${w}x${h}.png`) });
      await page.close();
    }
  });

  it("Home and Sessions write a session's date the same way; Home, newest added first, says when each was added", async () => {
    const page = await pageAt(1280, 800);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=recent-session]').length === 2);
    const home: Record<string, string> = {};
    // The date is the last part of each recent session's line ("16 GCs · max pause 5.90 ms · imported <date>").
    for (const li of await page.locator('ul.recent li').all())
      home[(await li.locator('[data-testid=recent-session]').textContent())!.trim()] = (await li
        .locator('[data-testid=recent-session-added]')
        .textContent())!.trim();
    expect(Object.keys(home).sort()).toEqual([LARGE, WHO].sort());
    await page.screenshot({ path: join(OUT, 'home-1280x800.png') });
    await page.click('[data-testid=nav-library]');
    await page.waitForSelector('[data-testid=session-row]');
    for (const t of [LARGE, WHO]) {
      expect(home[t], t).toMatch(/^imported /);
      const row = page.locator('[data-testid=session-row]', { has: page.locator(`text=${t}`) });
      // The Sessions page shows when it was taken, and says when it was added in the tooltip: the same words.
      expect(await row.locator('[data-testid=session-taken]').getAttribute('title'), t).toContain(home[t]!);
    }
    // Day and minute, not toLocaleString()'s default with seconds ("6/15/2019, 11:56:59 PM").
    expect(home[LARGE]).not.toMatch(/:\d\d:\d\d/);
    await page.close();
  });
});
