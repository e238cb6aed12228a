/// <reference lib="dom" />
/**
 * The app served from this test process (the service and web server from the sources, not a
 * `gcscope serve` child) with a Chromium page on it at 1280×800 — for e2e tests that need the
 * service in reach (a trace format registered only in the test, the sessions stored), and the steps
 * those tests share: open a trace through Open trace, read the process picker, take the two
 * screenshots.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { startWebServer, type WebServer } from '../../src-main/web/server.js';
import { launchBrowser } from './browser.js';

export interface InProcessApp {
  service: ProfilerService;
  web: WebServer;
  browser: Browser;
  page: Page;
  /** Where the database, traces and screenshots go (test-output/<name>). */
  out: string;
  close(): Promise<void>;
}

/** A fresh database under test-output/<name>, the web server on a free port and a page at 1280×800 that fails the test on a page error. */
export async function startInProcessApp(name: string): Promise<InProcessApp> {
  const out = join(process.cwd(), 'test-output', name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const service = await ProfilerService.create({
    dbPath: join(out, 'app.db'),
    tracesDir: join(out, 'traces'),
    uploadDir: join(tmpdir(), `gcscope-${name}-uploads-${process.pid}`),
    mode: 'browser',
    version: 'test',
  });
  const web = await startWebServer({ api: service, events: service.events, rendererDir: join(process.cwd(), 'dist', 'renderer'), port: 0 });
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => {
    throw e;
  });
  return {
    service,
    web,
    browser,
    page,
    out,
    close: async () => {
      await browser.close();
      await web.close();
      await service.close();
    },
  };
}

/** Opens a trace as a user does (Open trace's file input) and waits for the process picker a machine-wide trace brings up. */
export async function openTraceExpectingPicker(page: Page, name: string, buffer: Buffer, timeout = 60_000): Promise<void> {
  await page.setInputFiles('[data-testid=file-input]', { name, mimeType: 'application/octet-stream', buffer });
  await page.waitForSelector('[data-testid=process-picker]', { timeout });
}

/** The process picker's rows as the user reads them: [PID, name, GCs, ticked]. */
export function processPickerRows(page: Page): Promise<[string | null, string, string, boolean][]> {
  return page.$$eval('[data-testid=pick-row]', (trs) =>
    trs.map((tr): [string | null, string, string, boolean] => [
      tr.getAttribute('data-pid'),
      tr.querySelector('[data-testid=pick-name]')!.textContent!.trim(),
      tr.querySelector('[data-testid=pick-gcs]')!.textContent!.trim(),
      (tr.querySelector('[data-testid=pick-check]') as HTMLInputElement).checked,
    ]),
  );
}

/** Screenshots at 1280×800 and 1920×1080 (`<name>-1280.png`, `<name>-1920.png` in `dir`), back to 1280×800 after. */
export async function screenshotsAtBothSizes(page: Page, dir: string, name: string): Promise<void> {
  await page.screenshot({ path: join(dir, `${name}-1280.png`) });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: join(dir, `${name}-1920.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}
