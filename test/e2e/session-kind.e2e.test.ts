/// <reference lib="dom" />
/**
 * A session of a kind this version does not know (as a newer GCScope would write it) in a real
 * `gcscope serve` in Chromium: the Sessions list shows it by its kind, opening it (from the list,
 * or by a link before the list has loaded) shows a plain explanation instead of the GC session
 * view, and nothing throws (no console error, no error toast). Screenshots under
 * test-output/e2e-session-kind/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src-main/store/db.js';
import { createSession } from '../../src-main/store/sessions.js';
import { chromiumMissingReason, launchBrowser, newWatchedPage, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { TRACES } from '../helpers/fixtures.js';

const OUT = join(process.cwd(), 'test-output', 'e2e-session-kind');
const DB = join(OUT, 'e2e.db');
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;
let other = 0;
/** Everything the page reported as an error: console errors and uncaught exceptions. */
const problems: string[] = [];

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'browser end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  // A GC recording, and a session as a newer GCScope would add it (a kind this one does not know).
  expect((await runCli(['import', '--db', DB, TRACES + 'workload-concurrent.nettrace.zip'])).code).toBe(0);
  const db = await Database.open(DB);
  other = await createSession(db, {
    kind: 'something-new',
    name: 'snapshot from the future',
    source: 'record',
    status: 'complete',
    processName: 'Shop.Api',
    processId: 4242,
    // Its trace was taken long before it was added: the explanation says when it was added.
    traceStartUtc: '2020-01-02T03:04:05.000Z',
  });
  await db.close();
  server = await serve(DB);
  browser = await launchBrowser();
  page = await newWatchedPage(browser, problems);
}, 120_000);

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a session of an unknown kind in the app', () => {
  it('the Sessions list shows it with its kind, and the GC recording as before', async () => {
    await page.goto(`${server.url}#/library`);
    await page.waitForSelector('[data-testid=session-list] [data-testid=session-row]');
    const row = page.locator(`[data-testid=session-row][data-kind=something-new]`);
    await expect(row.locator('[data-testid=session-kind]').textContent()).resolves.toBe('unknown kind: something-new — made by a newer GCScope');
    // No GC figures for it, and nothing it cannot do.
    await expect(row.locator('[data-testid=session-paused]').count()).resolves.toBe(0);
    await expect(row.locator('[data-testid=export-session]').count()).resolves.toBe(0);
    await expect(row.locator('[data-testid=compare-pick]').isDisabled()).resolves.toBe(true);
    const gc = page.locator(`[data-testid=session-row][data-kind=gc]`);
    await expect(gc.getAttribute('data-gc-count')).resolves.toBe('38');
    await expect(gc.locator('[data-testid=session-kind]').count()).resolves.toBe(0);
    await page.screenshot({ path: join(OUT, 'library.png') });
  });

  it('opening it shows what it is instead of the GC session view', async () => {
    await page.locator(`[data-testid=session-row][data-kind=something-new] .name-cell button.link`).click();
    const box = page.locator('[data-testid=session-other-kind]');
    await box.waitFor();
    expect(await page.evaluate(() => location.hash)).toBe(`#/session/${other}`);
    await expect(box.locator('[data-testid=session-other-kind-name]').textContent()).resolves.toBe('something-new');
    expect(await box.textContent()).toMatch(/made by a newer GCScope/);
    // "Recorded <when it was added>", not the trace's own start (2020).
    const added = (await box.locator('.added').innerText()).trim();
    expect(added).toMatch(/^Recorded /);
    expect(added).toContain(String(new Date().getFullYear()));
    expect(added).not.toContain('2020');
    await expect(page.locator('[data-testid=session-view]').count()).resolves.toBe(0);
    await page.screenshot({ path: join(OUT, 'opened.png') });
  });

  it('a link to it, opened before the list has loaded, ends on the same explanation', async () => {
    await page.goto('about:blank');
    await page.goto(`${server.url}#/session/${other}`);
    await page.locator('[data-testid=session-other-kind]').waitFor();
    await expect(page.locator('[data-testid=session-view]').count()).resolves.toBe(0);
    await page.screenshot({ path: join(OUT, 'deep-link.png') });
  });

  it('nothing threw and no error was shown', async () => {
    expect(await page.locator('[data-testid=toast-error]').allTextContents()).toEqual([]);
    expect(problems).toEqual([]);
  });
});
