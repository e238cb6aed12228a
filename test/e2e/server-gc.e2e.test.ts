/// <reference lib="dom" />
/**
 * The Server GC lane group and the memory headroom lane as a user sees them, in Chromium through
 * `gcscope serve` on the committed traces (test/fixtures/PROVENANCE.md): a DATAS session shows the
 * lane group, its heap-count lane steps at the GCs where the trace's own NumHeaps changes, and a
 * click opens a decision table and the GC's per-heap balance; a workstation session has no lane
 * group; the hard-limit session's headroom lane shows the configured limit exactly. Screenshots
 * at 1280×800 and 1920×1080 go to test-output/e2e-server-gc/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchBrowser, pauseLane, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { TRACES } from '../helpers/fixtures.js';
import { buildWorkload, dotnetMissingReason, startWorkload } from '../workloads/workload.js';

const OUT = join(process.cwd(), 'test-output', 'e2e-server-gc');
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;
/** Session ids by trace, in import order. */
const ID = { datas: 1, hardLimit: 2, workstation: 3 };

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'Server GC lane end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const db = join(OUT, 'server-gc.db');
  for (const t of ['workload-net10-datas-phases.nettrace.zip', 'workload-net10-hardlimit.nettrace.zip', 'workload-workstation.nettrace.zip']) {
    const r = await runCli(['import', '--db', db, TRACES + t]);
    expect(r.code, r.stderr).toBe(0);
  }
  server = await serve(db);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 960 } });
  page.on('pageerror', (e) => {
    throw e;
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(id: number): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${server.url}#/session/${id}`);
  await page.waitForFunction(() => Number(document.querySelector<HTMLElement>('[data-testid=chart-headroom]')?.dataset.points ?? 0) > 0);
}

async function screenshots(name: string, selector: string): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    await page.locator(selector).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, `${name}-${width}x${height}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 960 });
}

describe('Server GC lanes in a real browser', () => {
  it("a DATAS session shows the Server GC lane group; its heap-count lane steps where the trace's NumHeaps changes, and the header says 1–2 heaps", async () => {
    await open(ID.datas);
    await page.waitForSelector('[data-testid=server-gc-lanes]');
    for (const lane of ['lane-heap-count', 'lane-tcp', 'lane-budget', 'heap-balance'])
      expect(await page.locator(`[data-testid=${lane}]`).count(), lane).toBe(1);
    await expect.poll(() => page.locator('[data-testid=session-view] header').innerText()).toContain('1–2 heaps');
    // The step line's level changes, as the lane computes them from each GC's own count, equal
    // the report's (which test/gc/datas-heap-count.test.ts checks against the trace's NumHeaps).
    const json = JSON.parse((await runCli(['report', '--format', 'json', TRACES + 'workload-net10-datas-phases.nettrace.zip'])).stdout) as {
      serverGc: { heapCountChanges: { gcNumber: number; from: number; to: number }[] };
    };
    expect(json.serverGc.heapCountChanges.map((c) => `${c.from}->${c.to}`)).toEqual(['1->2', '2->1']);
    const want = json.serverGc.heapCountChanges.map((c) => `${c.gcNumber}:${c.from}->${c.to}`).join(' ');
    await expect.poll(() => page.locator('[data-testid=lane-heap-count]').getAttribute('data-changes')).toBe(want);
    await expect.poll(() => page.locator('[data-testid=server-gc-lanes] h3').textContent()).toContain('2 heap-count changes');
    await expect.poll(() => page.locator('[data-testid=server-gc-lanes] h3').textContent()).toContain('2 change pauses');
    await screenshots('datas-lanes', '[data-testid=lane-heap-count]');
  });

  it('whole session: a thousand short gen0 pauses read as gen0 marks, not as the grey of their suspension dots', async () => {
    await open(ID.datas);
    const json = JSON.parse((await runCli(['report', '--format', 'json', TRACES + 'workload-net10-datas-phases.nettrace.zip'])).stdout) as {
      gcs: { generation: number; type: number; reason: number; pauseStartRelativeMSec: number; pauseDurationMSec: number }[];
    };
    await page.waitForTimeout(300);
    const lane = await pauseLane(page);
    const xOf = lane.xOf;
    const onePx = lane.yMax / lane.height;
    // A GC whose neighbours within 4 px are all plain gen0 GCs pausing under a pixel: there the
    // lane shows nothing but gen0 marks and their suspension dots, at the same height.
    const plain = (g: (typeof json.gcs)[number]): boolean =>
      g.generation === 0 && g.type === 0 && g.reason !== 1 && g.reason !== 7 && g.pauseDurationMSec < onePx;
    const pick = json.gcs.find((g) => plain(g) && json.gcs.every((o) => Math.abs(xOf(o) - xOf(g)) > 4 || plain(o)));
    expect(pick, `no stretch of plain gen0 GCs under ${onePx} ms`).toBeDefined();
    const x = xOf(pick!);
    const y = lane.top + lane.height * (1 - pick!.pauseDurationMSec / lane.yMax);
    const pixel = await page.evaluate(
      ({ x, y }) => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-testid=chart-pauses] canvas')!;
        const cb = canvas.getBoundingClientRect();
        const d = canvas.getContext('2d')!.getImageData(Math.round((x - cb.left) * devicePixelRatio), Math.round((y - cb.top) * devicePixelRatio), 1, 1).data;
        return [d[0], d[1], d[2]];
      },
      { x, y },
    );
    // gen0's blue (give or take the mark's edge blending), not the suspension dot's grey #777.
    [0x4e, 0x79, 0xa7].forEach((c, k) => expect(Math.abs(pixel[k]! - c), `channel ${k} of ${pixel.join(',')}`).toBeLessThanOrEqual(3));
  });

  it('clicking the heap-count lane opens the DATAS decision table and the per-heap balance of that GC', async () => {
    await open(ID.datas);
    const over = page.locator('[data-testid=chart-heap-count] .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox())!;
    // Early in the busy phase (2 heaps): the lane's x axis spans the session.
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
    await page.mouse.click(box.x + box.width * 0.1, box.y + box.height / 2);
    await page.waitForSelector('[data-testid=datas-decision]');
    const decision = (await page.locator('[data-testid=datas-decision]').textContent()) ?? '';
    expect(decision).toMatch(/DATAS decision at GC #\d+/);
    expect(decision).toContain('numGcsSinceLastChange');
    await page.waitForSelector('[data-testid=heap-balance-table]');
    const rows = await page.locator('[data-testid=heap-balance-table] tbody tr').count();
    expect(rows).toBeGreaterThanOrEqual(1);
    await page.keyboard.press('Escape');
    await screenshots('datas-decision', '[data-testid=datas-decision]');
    // A blocking GC picked in the table: under the balance, where its pause went — stopping + the
    // slowest heap's marking + the rest = the pause the report gives it.
    const json = JSON.parse((await runCli(['report', '--format', 'json', TRACES + 'workload-net10-datas-phases.nettrace.zip'])).stdout) as {
      gcs: { number: number; type: number; pauseDurationMSec: number }[];
    };
    await page.focus('[data-testid=gc-table]');
    await page.keyboard.press('Home');
    let picked: { number: number; type: number; pauseDurationMSec: number } | undefined;
    for (let k = 0; k < 20; k++) {
      await page.waitForSelector('[data-testid=gc-detail] h3');
      const n = Number(/GC #([\d,]+)/.exec((await page.textContent('[data-testid=gc-detail] h3')) ?? '')?.[1]?.replace(/,/g, ''));
      picked = json.gcs.find((g) => g.number === n);
      if (picked !== undefined && picked.type !== 1) break;
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(
        (t) => document.querySelector('[data-testid=gc-detail] h3')?.textContent?.startsWith(t) === false,
        `GC #${n.toLocaleString('en-US')} `,
      );
    }
    expect(picked?.type).not.toBe(1);
    const breakdown = page.locator('[data-testid=pause-breakdown]');
    await breakdown.waitFor();
    const text = ((await breakdown.textContent()) ?? '').replace(/\s+/g, ' ');
    const ms = (v: string): number => (v.endsWith(' s') ? 1000 : v.endsWith(' µs') ? 0.001 : 1) * Number(v.replace(/[^\d.]/g, ''));
    const m =
      /Of this GC's (\S+ \S+) pause: (\S+ \S+) stopping the threads, (\S+ \S+) marking on the slowest heap \(heap \d+;.* and (\S+ \S+) after marking/.exec(
        text,
      );
    expect(m, text).not.toBeNull();
    const [pause, suspend, mark, rest] = m!.slice(1).map(ms);
    expect(Math.abs(pause! - picked!.pauseDurationMSec)).toBeLessThanOrEqual(Math.max(0.001, picked!.pauseDurationMSec * 0.005));
    expect(Math.abs(suspend! + mark! + rest! - pause!)).toBeLessThanOrEqual(Math.max(0.01, pause! * 0.01));
    await screenshots('pause-breakdown', '[data-testid=heap-balance]');
    await page.keyboard.press('Escape');
  });

  it('a workstation session has no Server GC lane group, but has the memory headroom lane', async () => {
    await open(ID.workstation);
    expect(await page.locator('[data-testid=lane-headroom]').count()).toBe(1);
    expect(await page.locator('[data-testid=server-gc-lanes]').count()).toBe(0);
    expect(await page.locator('[data-testid=lane-heap-count]').count()).toBe(0);
  });

  it('while recording a DATAS process live, the Server GC lanes update: GCs with 2 heaps and DATAS decisions appear, and keep coming, before the process ends', async (ctx) => {
    if (skipOrFail(await dotnetMissingReason(), 'live Server GC lanes in the browser')) ctx.skip();
    await buildWorkload();
    const w = startWorkload({
      mode: 'datas',
      args: ['--scenario', 'datas-phases', '--iterations', '1'],
      env: { DATAS_BUSY_SECONDS: '25', DATAS_LIGHT_SECONDS: '2' },
    });
    try {
      const ready = await w.ready;
      await page.goto('about:blank');
      await page.goto(server.url);
      const row = page.locator(`[data-testid=process-row][data-pid="${ready.pid}"]`);
      await row.waitFor({ timeout: 20000 });
      await row.locator('[data-testid=record-button]').click();
      await page.waitForSelector('[data-testid=live-status]', { timeout: 20000 });
      await page.waitForSelector('[data-testid=server-gc-lanes]', { timeout: 20000 });
      // DATAS went to 2 heaps within the first GCs, before the attach: the lane shows 2 heaps and
      // DATAS's decisions as they come, and more GCs a few seconds later.
      const points = async (): Promise<number> => Number((await page.locator('[data-testid=chart-heap-count]').getAttribute('data-points')) ?? 0);
      const decisions = async (): Promise<number> =>
        Number(/([\d,]+) decisions/.exec((await page.locator('[data-testid=server-gc-lanes] h3').textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? 0);
      await expect.poll(decisions, { timeout: 20000 }).toBeGreaterThan(0);
      await expect.poll(() => page.locator('[data-testid=session-view] header').textContent(), { timeout: 10000 }).toMatch(/2 heaps/);
      const [p1, d1] = [await points(), await decisions()];
      await expect.poll(points, { timeout: 15000 }).toBeGreaterThan(p1);
      await expect.poll(decisions, { timeout: 15000 }).toBeGreaterThan(d1);
      // Still recording: the lanes updated live, not after the end.
      expect(await page.locator('[data-testid=live-status]').count()).toBe(1);
      expect(w.child.exitCode).toBeNull();
      await screenshots('datas-live', '[data-testid=lane-heap-count]');
    } finally {
      if (w.child.exitCode === null) w.child.kill('SIGKILL');
    }
  }, 120_000);

  it('the headroom lane shows the DOTNET_GCHeapHardLimit the process ran with, exactly', async () => {
    await open(ID.hardLimit);
    await expect.poll(() => page.locator('[data-testid=headroom-summary]').textContent()).toContain('hard limit 210 MB (209,715,200 bytes)');
    expect(await page.locator('[data-testid=server-gc-lanes]').count()).toBe(0);
    await screenshots('headroom-hard-limit', '[data-testid=lane-headroom]');
  });
});
