/** Debian's Chromium driven by playwright-core, and `gcscope serve` started as a user would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BIN } from './cli.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumMissingReason(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `Chromium is not installed at ${CHROMIUM} (apt-get install chromium)`;
}

/** A mouse drag from x0 to x1 at height y, through its midpoint, as a user selects a range on a lane. */
export async function drag(page: Page, x0: number, x1: number, y: number): Promise<void> {
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, y, { steps: 3 });
  await page.mouse.move(x1, y, { steps: 3 });
  await page.mouse.up();
}

/** A drag across a lane's plot (`[data-testid=<testid>] .u-over`) from one fraction of its width to another, at mid-height. */
export async function dragAcrossLane(page: Page, testid: string, from: number, to: number): Promise<void> {
  const over = (await page.locator(`[data-testid=${testid}] .u-over`).boundingBox())!;
  await drag(page, over.x + over.width * from, over.x + over.width * to, over.y + over.height / 2);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * A page at 1280×800 whose console errors and page errors are collected in `problems` (a test
 * asserts it stays empty), rather than thrown where they happen.
 */
export async function newWatchedPage(browser: Browser, problems: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page: ${e.message}`));
  return page;
}

export interface Served {
  url: string;
  origin: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `gcscope serve --db DB` and reads the URL from its first line of output. */
export async function serve(db: string): Promise<Served> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl).trim());
    });
    proc.once('exit', (c) => reject(new Error(`gcscope serve exited (${c}): ${err}`)));
  });
  return {
    url,
    origin: new URL(url).origin,
    proc,
    stop: async () => {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

/**
 * Lets a test hold back chosen API calls of the page: after this, `window.__delay = { method: ms }`
 * delays sending each call of those methods over the web bridge (its frames carry the method name
 * in a JSON header) — to see what the page shows while an answer is late.
 */
export async function allowDelayedCalls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __delay?: Record<string, number> };
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data: string | ArrayBufferLike | Blob | ArrayBufferView) {
      const text = ArrayBuffer.isView(data) && w.__delay !== undefined ? new TextDecoder('latin1').decode(data) : '';
      const delay = Object.entries(w.__delay ?? {}).find(([m]) => text.includes(`"method":"${m}"`))?.[1];
      if (delay === undefined) return send.call(this, data);
      setTimeout(() => send.call(this, data), delay);
    };
  });
}

export interface LaneFrame {
  /** The lanes' top, in page coordinates. */
  top: number;
  findings: boolean;
  tiles: boolean;
}

/**
 * Starts sampling, in every animation frame from the lanes' first drawing with data until the
 * findings and the tiles' numbers have been shown for 5 frames, where the lanes are. Call before
 * navigating to the session (in-page); the promise settles with the frames.
 */
export function sampleLanePositions(page: Page): Promise<LaneFrame[]> {
  return page.evaluate(
    () =>
      new Promise<LaneFrame[]>((resolve) => {
        const out: LaneFrame[] = [];
        const tick = (): void => {
          const lanes = document.querySelector('[data-testid=lanes]');
          const drawn = Number(document.querySelector<HTMLElement>('[data-testid=chart-pauses]')?.dataset.points ?? 0) > 0;
          const findings = document.querySelector('[data-testid=findings-count]') !== null;
          const tiles = (document.querySelector('[data-testid=tile-gc-count]')?.textContent?.trim() ?? 'n/a') !== 'n/a';
          if (lanes !== null && drawn) out.push({ top: lanes.getBoundingClientRect().top + scrollY, findings, tiles });
          if (out.filter((o) => o.findings && o.tiles).length >= 5) resolve(out);
          else requestAnimationFrame(tick);
        };
        tick();
      }),
  );
}

/**
 * The session view's pause lane as drawn: its plot box, its x and y scales and the lanes' time
 * origin; `xOf` is a GC's pause start in page pixels (tests that click or read a GC's mark).
 */
export async function pauseLane(
  page: Page,
): Promise<{ left: number; top: number; width: number; height: number; yMax: number; xOf: (g: { pauseStartRelativeMSec: number }) => number }> {
  const l = await page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[data-testid=chart-pauses]')!;
    const b = el.querySelector('.u-over')!.getBoundingClientRect();
    return {
      left: b.left,
      top: b.top,
      width: b.width,
      height: b.height,
      min: Number(el.dataset.xMin),
      max: Number(el.dataset.xMax),
      yMax: Number(el.dataset.yMax),
      t0: Number(document.querySelector<HTMLElement>('[data-testid=lanes]')!.dataset.t0),
    };
  });
  return { ...l, xOf: (g) => l.left + (((g.pauseStartRelativeMSec - l.t0) / 1000 - l.min) / (l.max - l.min)) * l.width };
}
