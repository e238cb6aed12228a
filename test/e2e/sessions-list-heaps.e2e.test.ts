/// <reference lib="dom" />
/**
 * The Sessions list says a session's GC mode as the session view does (issue 39): a DATAS session
 * whose heap count went 1 → 2 → 1 is "1–2 heaps" in its row, as in its header (the row said
 * "2 heaps", the largest count alone), and a plain Server GC session keeps its one count. In
 * Chromium through `gcscope serve` on committed traces (test/fixtures/PROVENANCE.md). Screenshots
 * of the list at 1280×800 and 1920×1080 go to test-output/e2e-sessions-list-heaps/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { TRACES } from '../helpers/fixtures.js';

const OUT = join(process.cwd(), 'test-output', 'e2e-sessions-list-heaps');
/** .NET 10 Server GC with DATAS: 1 heap, 2 from GC #13, 1 again from GC #148. */
const DATAS = 'workload-net10-datas-phases.nettrace.zip';
/** .NET 8 Server GC, 2 heaps throughout, no DATAS. */
const SERVER = 'workload-net8-server.nettrace.zip';
let skip = false;
let browser: Browser;
let server: Served;
const ID: Record<string, number> = {};

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'Sessions list end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const db = join(OUT, 'sessions.db');
  for (const t of [DATAS, SERVER]) {
    const r = await runCli(['import', TRACES + t, '--db', db, '--json']);
    expect(r.code, r.stderr).toBe(0);
    ID[t] = (JSON.parse(r.stdout) as { sessionId: number }).sessionId;
  }
  server = await serve(db);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(width: number, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on('pageerror', (e) => {
    throw e;
  });
  return page;
}

/** The GC mode cell of the session's row in the Sessions list. */
async function listMode(page: Page, trace: string): Promise<string> {
  await page.goto(`${server.url}#/library`);
  const cell = page.locator(`[data-testid=session-row][data-session-id="${ID[trace]}"] [data-testid=session-gc-mode]`);
  await cell.waitFor({ timeout: 30_000 });
  return (await cell.textContent())!.trim();
}

/** What the session view's header says: the GC mode, then " · " and the heaps when it names them. */
async function viewMode(page: Page, trace: string): Promise<{ mode: string; heaps: string | null }> {
  await page.goto(`${server.url}#/session/${ID[trace]}`);
  await page.waitForSelector('[data-testid=findings-count]', { timeout: 30_000 });
  await page.waitForFunction(() => Number(document.querySelector<HTMLElement>('[data-testid=chart-pauses]')?.dataset.points ?? 0) > 0);
  const mode = (await page.textContent('[data-testid=session-view-gc-mode]'))!.trim();
  const heaps = page.locator('[data-testid=session-view-heaps]');
  return { mode, heaps: (await heaps.count()) > 0 ? (await heaps.textContent())!.trim() : null };
}

describe('the Sessions list names the heaps as the session view does', () => {
  it('a DATAS session whose heap count changed: "1–2 heaps" in its row and in its header, not its largest count alone', async () => {
    const page = await newPage(1280, 800);
    const row = await listMode(page, DATAS);
    const view = await viewMode(page, DATAS);
    expect(view.mode).toMatch(/^server \(DATAS\)/);
    expect(view.heaps).toBe('1–2 heaps');
    expect(row).toBe(`${view.mode} · ${view.heaps}`);
    await page.close();
  });

  it('a plain Server GC session keeps its one heap count, in its row as in its header', async () => {
    const page = await newPage(1280, 800);
    const row = await listMode(page, SERVER);
    const view = await viewMode(page, SERVER);
    expect(view.heaps).toBe('2 heaps');
    expect(row).toBe(`${view.mode} · 2 heaps`);
    await page.close();
  });

  it('screenshots of the list at 1280×800 and 1920×1080', async () => {
    for (const [w, h] of [
      [1280, 800],
      [1920, 1080],
    ] as const) {
      const page = await newPage(w, h);
      expect(await listMode(page, DATAS)).toContain('1–2 heaps');
      await page.screenshot({ path: join(OUT, `sessions-${w}x${h}.png`) });
      await page.close();
    }
  });
});
