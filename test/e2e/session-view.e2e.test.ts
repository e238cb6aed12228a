/// <reference lib="dom" />
/**
 * The session view as a user sees it, in real Chromium through `gcscope serve`, on real traces
 * imported with `gcscope import`: the GC detail opens in view at 1280×800 and Esc closes it;
 * filters belong to their session and show a "filters active — clear" state; the tiles summarise
 * the filtered rows; "why this generation" for an induced and a background gen2 against the
 * trace's own events; the table's optional columns; the Sessions page at 1280 px; the copied TSV;
 * and the view driven by keyboard only. Screenshots go to test-output/session-view/ (the README's
 * come from there).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gcReasonName } from '../../src-main/shared/gc-enums.js';
import { decodeGCEvent } from '../../src-main/clr/gc-events.js';
import { formatFixed, formatMs } from '../../src-main/shared/format.js';
import { isInducedReason } from '../../src-main/shared/gc-record.js';
import { allowDelayedCalls, chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { decode } from '../helpers/decode.js';
import { skipOrFail } from '../helpers/environment.js';
import { TRACES, traceBytes } from '../helpers/fixtures.js';
import { buildWorkload, dotnetMissingReason, GEN0_BUDGET_ENV, WORKLOAD_DLL } from '../workloads/workload.js';

const OUT = join(process.cwd(), 'test-output', 'session-view');
const CONCURRENT = 'workload-concurrent.nettrace.zip';
const LARGE = 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip';
const SERVER = 'workload-server.nettrace.zip';
/** Background GCs during which large allocations waited (the private provider's BGCAllocWaitBegin/End). */
const LOH_WAIT = 'problem-loh-alloc-wait.nettrace.zip';
/** The concurrent workload's trace cut at 90 %: it stops inside a GC, which stays incomplete. */
const CUT = 'workload-concurrent-cut.nettrace';
/** Recorded by attaching to a running app: its one GC is the process's fourth. */
const ATTACHED = 'HeartRateMonitor.10068.nettrace.zip';
let skip = false;
let browser: Browser;
let context: BrowserContext;
let server: Served;
let page: Page;
const sessionOf: Record<string, number> = {};

interface ReportJson {
  trace: { startTimeUtc: string };
  summary: { gcCount: number };
  gcs: {
    number: number;
    pauseStartRelativeMSec: number;
    allocedSinceLastGCMB: number;
    generation: number;
    type: number;
    reason: number;
    pauseDurationMSec: number;
    isComplete: boolean;
    lohAllocWaitCount: number | null;
    lohAllocWaitMaxMSec: number | null;
    lohAllocWaitTotalMSec: number | null;
    lohAllocatedMB: number | null;
    pohAllocatedMB: number | null;
  }[];
}
const reports: Record<string, ReportJson> = {};

async function shot(name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage });
}

async function openSession(trace: string): Promise<void> {
  await page.evaluate((id) => (location.hash = `#/session/${id}`), sessionOf[trace]!);
  await page.waitForSelector('[data-testid=session-view]');
  await page.waitForFunction((n) => document.querySelector('[data-testid=gc-row-count]')?.textContent?.endsWith(`of ${n} GCs`), reports[trace]!.gcs.length);
  await page.waitForFunction(() => document.querySelector('[data-testid=tile-gc-count]')?.textContent?.trim() !== 'n/a');
}

/** Text of the cells of the rendered rows (the table renders the visible window plus a margin). */
async function rowCells(): Promise<string[][]> {
  return page.locator('[data-testid=gc-row]').evaluateAll((els) => els.map((e) => Array.from(e.children).map((c) => c.textContent!.trim())));
}

async function openGc(number: number): Promise<void> {
  await page.click('[data-testid=sort-number]');
  if ((await page.textContent('[data-testid=sort-number]'))!.includes('▼')) await page.click('[data-testid=sort-number]');
  const row = page.locator('[data-testid=gc-row]', { has: page.locator(`span:text-is("${number.toLocaleString('en-US')}")`) }).first();
  await row.scrollIntoViewIfNeeded();
  await row.click();
  await page.waitForFunction((n) => document.querySelector('[data-testid=gc-detail] h3')?.textContent?.startsWith(`GC #${n} `), number.toLocaleString('en-US'));
}

// A missing tool skips through the runner (counted as skipped, with skipOrFail's printed reason); under CI=true skipOrFail fails instead.
beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'session view end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const db = join(OUT, 'view.db');
  const bytes = traceBytes(CONCURRENT);
  writeFileSync(join(OUT, CUT), bytes.subarray(0, Math.floor(bytes.length * 0.9)));
  for (const t of [CONCURRENT, LARGE, CUT, SERVER, LOH_WAIT, ATTACHED]) {
    const file = t === CUT ? join(OUT, CUT) : TRACES + t;
    const r = await runCli(['import', file, '--db', db, '--json']);
    // A truncated trace is stored as an incomplete session; the CLI exits 2 to say it was cut.
    expect(r.code, r.stderr).toBe(t === CUT ? 2 : 0);
    sessionOf[t] = (JSON.parse(r.stdout) as { sessionId: number }).sessionId;
    reports[t] = JSON.parse((await runCli(['report', '--json', file])).stdout) as ReportJson;
  }
  server = await serve(db);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  page = await context.newPage();
  await allowDelayedCalls(page);
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=home]');
}, 120000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the session view in a real browser', () => {
  it("opens a GC's detail in view at 1280×800, without squeezing the table, and Esc closes it", async () => {
    await openSession(CONCURRENT);
    const tableBefore = (await page.locator('[data-testid=gc-table]').boundingBox())!;
    // Scrolled down to the table, as a user clicking a row would be.
    await page.locator('[data-testid=gc-row]').nth(3).scrollIntoViewIfNeeded();
    await page.locator('[data-testid=gc-row]').nth(3).click();
    await page.waitForSelector('[data-testid=gc-detail] h3');
    const box = (await page.locator('[data-testid=gc-detail]').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeLessThan(100);
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    expect(box.width).toBeGreaterThan(300);
    // The heading and the "why" section are reachable inside the panel (it scrolls by itself).
    expect(await page.locator('[data-testid=gc-detail] h3').isVisible()).toBe(true);
    const tableAfter = (await page.locator('[data-testid=gc-table]').boundingBox())!;
    expect(tableAfter.width).toBe(tableBefore.width);
    await shot('detail-1280x800');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=gc-detail]', { state: 'detached' });
  });

  it("splits a blocking GC's pause into suspension, marking and after marking, adding up to the report's pause; not a background GC's", async () => {
    await openSession(CONCURRENT);
    const gcs = reports[CONCURRENT]!.gcs;
    const blocking = gcs.find((g) => g.type === 0 && g.pauseDurationMSec > 0.05)!;
    // By keyboard, oldest first: Home opens GC #1 and the arrows step to the others.
    const stepTo = async (n: number): Promise<void> => {
      const label = `GC #${n.toLocaleString('en-US')} `;
      for (let k = 0; k < 60; k++) {
        await page.waitForSelector('[data-testid=gc-detail] h3');
        if ((await page.textContent('[data-testid=gc-detail] h3'))!.startsWith(label)) return;
        const was = (await page.textContent('[data-testid=gc-detail] h3'))!;
        await page.keyboard.press('ArrowDown');
        await page.waitForFunction((t) => document.querySelector('[data-testid=gc-detail] h3')?.textContent !== t, was);
      }
      throw new Error(`never reached ${label}`);
    };
    await page.click('[data-testid=sort-number]');
    if ((await page.textContent('[data-testid=sort-number]'))!.includes('▼')) await page.click('[data-testid=sort-number]');
    await page.focus('[data-testid=gc-table]');
    await page.keyboard.press('Home');
    await stepTo(blocking.number);
    const pauseText = ((await page.textContent('[data-testid=detail-pause]')) ?? '').replace(/\s+/g, ' ').trim();
    await page.locator('[data-testid=detail-pause-breakdown]').waitFor();
    const text = ((await page.textContent('[data-testid=detail-pause]')) ?? '').replace(/\s+/g, ' ').trim();
    const ms = (v: string): number => (v.endsWith(' s') ? 1000 : v.endsWith(' µs') ? 0.001 : 1) * Number(v.replace(/[^\d.]/g, ''));
    const m = /^(\S+ \S+) \(suspend (\S+ \S+), marking (\S+ \S+), after marking (\S+ \S+)\)$/.exec(text);
    expect(m, `${pauseText} → ${text}`).not.toBeNull();
    const [pause, suspend, mark, rest] = m!.slice(1).map(ms);
    // The pause is the report's, as formatted.
    expect(text.startsWith(`${formatMs(blocking.pauseDurationMSec)} `)).toBe(true);
    expect(Math.abs(suspend! + mark! + rest! - pause!)).toBeLessThanOrEqual(Math.max(0.01, pause! * 0.01));
    // A background GC marks while the program runs: its pause is not split.
    const background = gcs.find((g) => g.type === 1)!;
    await page.focus('[data-testid=gc-table]');
    await stepTo(background.number);
    await page.waitForTimeout(500);
    expect(await page.locator('[data-testid=detail-pause-breakdown]').count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('explains "why this generation" for an induced gen2 and a background gen2 with the trace\'s own values', async () => {
    // The trace's own events: GCStart (number, depth, reason), and each GC's GCPerHeapHistory:
    // the one its thread fires just before that GC's GCEnd (CondemnReasons0: requested generation
    // in bits 0–1). A background GC starts on the application's thread but fires its history and
    // GCEnd on its own thread, after the foreground GC that runs in between.
    const d = decode(traceBytes(CONCURRENT));
    const start = new Map<number, { depth: number; reason: number; type: number }>();
    const requested = new Map<number, number>();
    const pendingOnThread = new Map<number, number>();
    for (const e of d.events) {
      const g = decodeGCEvent(e, d.trace!.pointerSize);
      if (g?.kind === 'GCStart') start.set(g.count, { depth: g.depth, reason: g.reason, type: g.type });
      else if (g?.kind === 'GCPerHeapHistory' && !pendingOnThread.has(e.threadId)) pendingOnThread.set(e.threadId, g.condemnReasons0 & 3);
      else if (g?.kind === 'GCEnd' && pendingOnThread.has(e.threadId)) {
        requested.set(g.count, pendingOnThread.get(e.threadId)!);
        pendingOnThread.delete(e.threadId);
      }
    }
    // GC.Collect(2, Forced, blocking, compacting) has the reason InducedCompacting (10).
    const induced = reports[CONCURRENT]!.gcs.find((g) => g.generation === 2 && g.type === 0 && gcReasonName(g.reason).startsWith('Induced'))!;
    const background = reports[CONCURRENT]!.gcs.find((g) => g.generation === 2 && g.type === 1 && !isInducedReason(g.reason))!;
    expect(induced).toBeDefined();
    expect(background).toBeDefined();
    await openSession(CONCURRENT);
    for (const gc of [induced, background]) {
      const s = start.get(gc.number)!;
      await openGc(gc.number);
      const why = page.locator('[data-testid=detail-why]');
      expect(await why.locator('[data-testid=why-trigger]').textContent()).toBe(gcReasonName(s.reason));
      expect(await why.locator('[data-testid=why-generations]').textContent()).toBe(`Requested gen ${requested.get(gc.number)}, collected gen ${s.depth}`);
      const factors = await why.locator('[data-testid=why-factors] li').allTextContents();
      expect(factors.join('; ')).not.toMatch(/gen0 allocation budget/);
      if (gc === induced) expect(factors).toContain('induced (blocking)');
      else {
        expect(factors).toContain(`escalated from gen${requested.get(gc.number)} to gen2`);
        expect(factors.some((f) => f.startsWith('run as a background GC'))).toBe(true);
      }
    }
    await shot('why-background-gen2');
    await page.keyboard.press('Escape');
  });

  it('a GC whose LOH and POH allocations TraceEvent takes from the same samples says so, instead of showing a POH allocation', async () => {
    // workload-server: no per-heap history around GC #3 (a background GC before it), so
    // TraceEvent gives LOH and POH the same large-object sample total; the workload pins nothing.
    const g3 = reports[SERVER]!.gcs.find((g) => g.number === 3)!;
    expect(g3.pohAllocatedMB).toBe(g3.lohAllocatedMB);
    await openSession(SERVER);
    await openGc(3);
    const text = (await page.textContent('[data-testid=detail-alloc-ticks]'))!;
    expect(text).toMatch(/large objects 9\.36 MB — from allocation samples, LOH and POH not told apart/);
    expect(text).not.toMatch(/POH 9\.36/);
    await page.keyboard.press('Escape');
    // With per-heap history the two are apart, as before.
    const g8 = reports[CONCURRENT]!.gcs.find((g) => g.number === 8)!;
    expect([g8.lohAllocatedMB, g8.pohAllocatedMB]).toEqual([3.147304, 0]);
    await openSession(CONCURRENT);
    await openGc(8);
    expect(await page.textContent('[data-testid=gc-detail]')).toMatch(/LOH 3\.15 MB, POH 0 MB/);
    expect(await page.locator('[data-testid=detail-alloc-ticks]').count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it("keeps filters with their session: Reason = Induced here does not empty the other session's table; the state is visible and clears", async () => {
    await openSession(CONCURRENT);
    const total = reports[CONCURRENT]!.gcs.length;
    await page.selectOption('[data-testid=filter-reason]', { label: 'Induced' });
    await page.waitForSelector('[data-testid=filters-active]');
    expect(await page.textContent('[data-testid=filters-active]')).toMatch(/^Filters active — clear$/);
    const induced = reports[CONCURRENT]!.gcs.filter((g) => g.reason === 1).length;
    expect(induced).toBeGreaterThan(0);
    await page.waitForFunction((t) => document.querySelector('[data-testid=gc-row-count]')?.textContent === t, `${induced} of ${total} GCs`);
    expect(new Set((await rowCells()).map((c) => c[2]))).toEqual(new Set(['Induced']));
    await shot('filters-active');
    // Another session: all its GCs, no filter state, the reason box on "any".
    await openSession(LARGE);
    const large = reports[LARGE]!.gcs.length;
    expect(await page.textContent('[data-testid=gc-row-count]')).toBe(`${large} of ${large} GCs`);
    expect(await page.locator('[data-testid=filters-active]').count()).toBe(0);
    expect(await page.locator('[data-testid=filter-reason] option:checked').textContent()).toBe('any');
    // Back: the first session's filter is still there.
    await openSession(CONCURRENT).catch(() => undefined);
    await page.waitForFunction((t) => document.querySelector('[data-testid=gc-row-count]')?.textContent === t, `${induced} of ${total} GCs`);
    expect(await page.locator('[data-testid=filter-reason] option:checked').textContent()).toBe('Induced');
    await page.click('[data-testid=clear-filters]');
    await page.waitForFunction((t) => document.querySelector('[data-testid=gc-row-count]')?.textContent === t, `${total} of ${total} GCs`);
    expect(await page.locator('[data-testid=filters-active]').count()).toBe(0);
  });

  it('summarises the filtered GCs in the tiles: count and total pause equal the filtered table rows', async () => {
    await openSession(CONCURRENT);
    const unfiltered = await page.textContent('[data-testid=tile-gc-count]');
    await page.uncheck('[data-testid=filter-gen0]');
    await page.uncheck('[data-testid=filter-gen1]');
    await page.waitForSelector('[data-testid=filters-active]');
    const gen2 = reports[CONCURRENT]!.gcs.filter((g) => g.generation === 2);
    await page.waitForFunction((n) => document.querySelector('[data-testid=tile-gc-count]')?.textContent === String(n), gen2.length);
    expect(unfiltered).not.toBe(String(gen2.length));
    const rows = await rowCells();
    expect(rows).toHaveLength(gen2.length);
    // Every row shown is in the tiles (this trace has no incomplete GC), and their pauses add up.
    expect(await page.textContent('[data-testid=tile-gc-count]')).toBe(String(rows.length));
    const sum = gen2.reduce((a, g) => a + g.pauseDurationMSec, 0);
    expect(await page.textContent('[data-testid=tile-total-pause]')).toBe(`total ${formatMs(sum)}`);
    expect(Math.abs(rows.reduce((a, c) => a + Number(c[4]), 0) - sum)).toBeLessThan(0.001 * rows.length);
    expect(await page.textContent('[data-testid=tiles-scope]')).toBe('whole session, filtered GCs only');
    // The rollup by generation follows the same filter.
    const genRows = await page.locator('[data-testid=rollup-generation] tbody tr').evaluateAll((els) => els.map((e) => e.children[1]!.textContent));
    expect(genRows).toEqual(['0', '0', String(gen2.length)]);
    // A generation with no GC shown has nothing measured: dashes, not "0 µs" and "0 MB".
    const gen0Row = await page
      .locator('[data-testid=rollup-generation] tbody tr')
      .first()
      .evaluate((e) =>
        Array.from(e.children)
          .slice(2)
          .map((c) => c.textContent!.trim()),
      );
    expect(gen0Row).toEqual(Array.from({ length: 7 }, () => '–'));
    await shot('tiles-filtered');
    await page.click('[data-testid=clear-filters]');
  });

  it("says when a trace begins after the process's first GCs, and how many it does not hold", async () => {
    await openSession(ATTACHED);
    const first = reports[ATTACHED]!.gcs[0]!.number;
    expect(first).toBeGreaterThan(1);
    expect(await page.textContent('[data-testid=first-gc-note]')).toBe(`from GC #${first} (${first - 1} earlier GCs not recorded)`);
    // One GC: TraceEvent's span (first GC's start → last HeapStats) is shorter than its pause,
    // and its % paused is 101.2 %. The tile shows TraceEvent's number and says why it means nothing.
    expect(await page.textContent('[data-testid=summary]')).toMatch(/101\.20 %/);
    expect(await page.textContent('[data-testid=tile-paused-short-span]')).toMatch(/cannot say how much of the time is paused/);
    // Its GC's detail: no allocation sample, because the trace has none at all.
    await openGc(first);
    expect(await page.textContent('[data-testid=gc-who-no-ticks]')).toMatch(/this trace has none/);
    await page.keyboard.press('Escape');
    await openSession(CONCURRENT);
    expect(reports[CONCURRENT]!.gcs[0]!.number).toBe(1);
    expect(await page.locator('[data-testid=first-gc-note]').count()).toBe(0);
    expect(await page.locator('[data-testid=tile-paused-short-span]').count()).toBe(0);
    // A trace with samples, and a GC after which almost nothing was allocated: the detail says
    // so, not that the trace lacks them (a tester was told to record gc-verbose for such a GC).
    const quiet = reports[CONCURRENT]!.gcs.filter((g) => g.number > 1).sort((a, b) => a.allocedSinceLastGCMB - b.allocedSinceLastGCMB)[0]!;
    expect(quiet.allocedSinceLastGCMB).toBeLessThan(0.1);
    await openGc(quiet.number);
    expect(await page.textContent('[data-testid=gc-who-no-ticks]')).toMatch(/so little was allocated in between/);
    await page.keyboard.press('Escape');
  });

  it('says why the tiles count one GC fewer than the table: the incomplete GC of a cut trace', async () => {
    const gcs = reports[CUT]!.gcs;
    const complete = gcs.filter((g) => g.isComplete).length;
    expect(gcs.length - complete).toBe(1);
    await openSession(CUT);
    expect(await page.textContent('[data-testid=gc-row-count]')).toBe(`${gcs.length} of ${gcs.length} GCs`);
    await page.waitForFunction((n) => document.querySelector('[data-testid=tile-gc-count]')?.textContent === String(n), complete);
    expect(await page.textContent('[data-testid=tile-incomplete-note]')).toBe('+1 incomplete GC in the table, not counted');
    expect(await page.locator('.session-head .badge.warn').allTextContents()).toContain('1 incomplete GC');
    // The incomplete GC's pause was never measured: "n/a", not "0.000".
    const incomplete = gcs.find((g) => !g.isComplete)!;
    const headers = (await page.locator('.gc-table .head [role=columnheader]').allTextContents()).map((h) => h.replace(/[▲▼]/g, '').trim());
    const pauseCol = headers.indexOf('Pause ms');
    // Newest first: the GC the cut left incomplete is the last one, at the top, rendered.
    await page.click('[data-testid=sort-number]');
    if (!(await page.textContent('[data-testid=sort-number]'))!.includes('▼')) await page.click('[data-testid=sort-number]');
    const row = page.locator('[data-testid=gc-row]', { has: page.locator(`span:text-is("${incomplete.number.toLocaleString('en-US')}")`) }).first();
    await row.scrollIntoViewIfNeeded();
    expect(await row.locator(':scope > span').nth(pauseCol).textContent()).toBe('n/a');
    // Its detail says the same, not "0 µs".
    await row.click();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid=gc-detail] h3')?.textContent?.startsWith(`GC #${n} `),
      incomplete.number.toLocaleString('en-US'),
    );
    expect(await page.textContent('[data-testid=detail-pause]')).toMatch(/^n\/a \(suspend /);
    await page.keyboard.press('Escape');
    // The sessions list says the same as the session view's badge, not only a GC count.
    await page.click('[data-testid=nav-library]');
    const listed = page.locator('[data-testid=session-row]', { hasText: CUT });
    expect(await listed.locator('[data-testid=session-incomplete-gcs]').textContent()).toBe('1 incomplete');
  });

  it('copies the rows shown as TSV with feedback and without float noise', async () => {
    await openSession(CONCURRENT);
    await page.click('[data-testid=copy-tsv]');
    const total = reports[CONCURRENT]!.gcs.length;
    await page.waitForFunction((t) => document.querySelector('[data-testid=copy-status]')?.textContent === t, `Copied ${total} rows as TSV`);
    const text = await page.evaluate(() => navigator.clipboard.readText());
    const lines = text.split('\n');
    expect(lines[0]).toBe('GC#\tGen\tReason\tStart s\tPause ms\tSuspend ms\tBefore MB\tAfter MB\tPromoted MB\tAlloc MB');
    expect(lines).toHaveLength(total + 1);
    for (const l of lines.slice(1)) for (const v of l.split('\t').slice(3)) expect(v, l).toMatch(/^(-?\d+(\.\d{1,6})?)?$/);
    const byNumber = new Map(lines.slice(1).map((l) => [Number(l.split('\t')[0]), l.split('\t')]));
    for (const g of reports[CONCURRENT]!.gcs) expect(Number(byNumber.get(g.number)![4]), `GC #${g.number}`).toBe(Number(g.pauseDurationMSec.toFixed(3)));
  });

  it('offers Frag %, Pinned and survival by generation as table columns', async () => {
    await openSession(CONCURRENT);
    await page.click('[data-testid=column-picker] summary');
    for (const c of ['fragPercent', 'pinnedCount', 'gen0SurvivalPercent', 'gen2SurvivalPercent']) await page.check(`[data-testid=column-${c}]`);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=cell-fragPercent]') !== null &&
        !document.querySelector('[data-testid=cell-fragPercent]')!.textContent!.includes('…'),
    );
    const heads = await page.locator('[data-testid=gc-table] .head button').allTextContents();
    for (const h of ['Frag %', 'Pinned', 'Surv gen0 %', 'Surv gen2 %']) expect(heads.map((x) => x.trim())).toContain(h);
    const frag = await page.locator('[data-testid=cell-fragPercent]').allTextContents();
    expect(frag.filter((v) => /^\d+\.\d$/.test(v)).length).toBeGreaterThan(5);
    // Sortable like any column: largest fragmentation first, unavailable last.
    await page.click('[data-testid=sort-fragPercent]');
    const sorted = (await page.locator('[data-testid=cell-fragPercent]').allTextContents()).filter((v) => v !== 'n/a').map(Number);
    expect(sorted.length).toBeGreaterThan(5);
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    await shot('table-columns');
    // The click on a header closed the menu (a click elsewhere does); opened again to turn the columns off.
    expect(await page.locator('[data-testid=column-picker]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await page.click('[data-testid=column-picker] summary');
    for (const c of ['fragPercent', 'pinnedCount', 'gen0SurvivalPercent', 'gen2SurvivalPercent']) await page.uncheck(`[data-testid=column-${c}]`);
    // Esc closes the open menu (it covered the table's columns and only a click outside closed it).
    expect(await page.locator('[data-testid=column-picker]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-testid=column-picker]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
  });

  it('with every optional column on at 1280 px, the table scrolls sideways to its last column, header along; the column menu stays in the window', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openSession(CONCURRENT);
    await page.click('[data-testid=column-picker] summary');
    const menu = await page.locator('[data-testid=column-picker] .col-menu').boundingBox();
    expect(menu!.x).toBeGreaterThanOrEqual(0);
    expect(menu!.x + menu!.width).toBeLessThanOrEqual(1280);
    const boxes = page.locator('[data-testid=column-picker] .col-menu input[type=checkbox]');
    const n = await boxes.count();
    for (let k = 0; k < n; k++) await boxes.nth(k).check();
    // A click elsewhere closes the menu.
    await page.click('[data-testid=gc-row-count]');
    expect(await page.locator('[data-testid=column-picker]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    const table = (await page.locator('[data-testid=gc-table]').boundingBox())!;
    const lastHead = page.locator('[data-testid=gc-table] .head button').last();
    const lastCell = page.locator('[data-testid=gc-row]').first().locator('span').last();
    // Wider than the pane: the last column starts past its right edge…
    expect((await lastHead.boundingBox())!.x).toBeGreaterThan(table.x + table.width);
    // …and scrolling the rows sideways brings it, and its header, into the pane, lined up.
    await page.locator('[data-testid=gc-table] .viewport').evaluate((v) => (v.scrollLeft = v.scrollWidth));
    await expect.poll(async () => (await lastHead.boundingBox())!.x + (await lastHead.boundingBox())!.width).toBeLessThanOrEqual(table.x + table.width);
    const h = (await lastHead.boundingBox())!;
    const c = (await lastCell.boundingBox())!;
    expect(Math.abs(h.x + h.width - (c.x + c.width))).toBeLessThan(2);
    await page.locator('[data-testid=gc-table] .viewport').evaluate((v) => (v.scrollLeft = 0));
    await page.click('[data-testid=column-picker] summary');
    for (let k = 0; k < n; k++) await boxes.nth(k).uncheck();
    await page.keyboard.press('Escape');
  });

  it('a GC whose "allocated since previous" is below zero (as TraceEvent computes it) says why in its detail; a positive one says nothing', async () => {
    const gcs = reports[LOH_WAIT]!.gcs;
    const negative = gcs.find((g) => g.isComplete && g.allocedSinceLastGCMB < 0)!;
    const positive = gcs.find((g) => g.isComplete && g.allocedSinceLastGCMB > 0 && (g.lohAllocatedMB ?? 0) >= 0 && (g.pohAllocatedMB ?? 0) >= 0)!;
    expect(negative).toBeDefined();
    await openSession(LOH_WAIT);
    await openGc(negative.number);
    expect(await page.textContent('[data-testid=detail-alloc-negative]')).toContain('not an allocation');
    await page.keyboard.press('Escape');
    await openGc(positive.number);
    expect(await page.locator('[data-testid=detail-alloc-negative]').count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it("shows how long large allocations waited for background GCs: three picker columns, and a line in the background GC's detail", async () => {
    const gcs = reports[LOH_WAIT]!.gcs;
    const waited = gcs.filter((g) => (g.lohAllocWaitCount ?? 0) > 0);
    const longest = waited.reduce((a, g) => (g.lohAllocWaitMaxMSec! > a.lohAllocWaitMaxMSec! ? g : a));
    const noWait = gcs.find((g) => g.lohAllocWaitCount === 0)!;
    const notBgc = gcs.find((g) => g.type !== 1)!;
    expect(waited.length).toBeGreaterThan(5);
    await openSession(LOH_WAIT);
    await page.click('[data-testid=column-picker] summary');
    const keys = ['lohWaitCount', 'lohWaitMaxMSec', 'lohWaitTotalMSec'];
    for (const c of keys) {
      // Offered without "(not in this trace)": this trace has them.
      expect(await page.locator(`[data-testid=column-${c}]`).locator('xpath=..').textContent()).not.toContain('not in this trace');
      await page.check(`[data-testid=column-${c}]`);
    }
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=cell-lohWaitMaxMSec]') !== null &&
        !document.querySelector('[data-testid=cell-lohWaitMaxMSec]')!.textContent!.includes('…'),
    );
    const heads = (await page.locator('[data-testid=gc-table] .head button').allTextContents()).map((x) => x.trim());
    for (const h of ['LOH waits', 'LOH wait max ms', 'LOH wait total ms']) expect(heads).toContain(h);
    // The menu, open over the headers, closed first (as a user would: Esc).
    await page.keyboard.press('Escape');
    // Sorted by the longest wait: the worst background GC first, with the trace's own numbers.
    await page.click('[data-testid=sort-lohWaitMaxMSec]');
    if (!(await page.textContent('[data-testid=sort-lohWaitMaxMSec]'))!.includes('▼')) await page.click('[data-testid=sort-lohWaitMaxMSec]');
    const first = (await rowCells())[0]!;
    expect(first[0]).toBe(longest.number.toLocaleString('en-US'));
    expect(await page.locator('[data-testid=cell-lohWaitMaxMSec]').first().textContent()).toBe(longest.lohAllocWaitMaxMSec!.toFixed(3));
    expect(await page.locator('[data-testid=cell-lohWaitCount]').first().textContent()).toBe(String(longest.lohAllocWaitCount));
    await shot('table-loh-waits');
    // The GC detail says it in words for a background GC; "none" when the BGC had no wait; nothing for other GCs.
    await page.locator('[data-testid=gc-row]').first().click();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid=gc-detail] h3')?.textContent?.startsWith(`GC #${n} `),
      longest.number.toLocaleString('en-US'),
    );
    expect(await page.textContent('[data-testid=detail-loh-wait]')).toBe(
      `${longest.lohAllocWaitCount}, longest ${formatMs(longest.lohAllocWaitMaxMSec)}, ${formatMs(longest.lohAllocWaitTotalMSec)} in all`,
    );
    expect(await page.locator('[data-testid=gc-detail] dt', { hasText: 'LOH allocations waited' }).count()).toBe(1);
    await openGc(noWait.number);
    expect(await page.textContent('[data-testid=detail-loh-wait]')).toBe('none during this background GC');
    await openGc(notBgc.number);
    expect(await page.locator('[data-testid=detail-loh-wait]').count()).toBe(0);
    // Its start as `gcscope report` (TraceEvent's PauseStartRelativeMSec) gives it, beside the axis's time.
    expect(await page.textContent('[data-testid=detail-times]')).toContain(`${formatFixed(notBgc.pauseStartRelativeMSec, 3)} ms after the trace began`);
    await page.keyboard.press('Escape');
    await page.click('[data-testid=column-picker] summary');
    for (const c of keys) await page.uncheck(`[data-testid=column-${c}]`);
    await page.keyboard.press('Escape');
  });

  it('a row clicked then left with ↓ is not shown as picked: one row highlighted, no second focus ring', async () => {
    await openSession(CONCURRENT);
    const rows = page.locator('[data-testid=gc-row]');
    const third = (await rows.nth(2).locator('span').first().textContent())!.trim();
    const fourth = (await rows.nth(3).locator('span').first().textContent())!.trim();
    await rows.nth(2).click();
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((n) => document.querySelector('[data-testid=gc-row].selected span')?.textContent?.trim() === n, fourth);
    const state = await page.evaluate(() => ({
      focused: document.activeElement?.getAttribute('data-testid'),
      focusedRows: document.querySelectorAll('[data-testid=gc-row]:focus').length,
      selected: Array.from(document.querySelectorAll('[data-testid=gc-row].selected')).map((r) => r.querySelector('span')?.textContent?.trim()),
    }));
    expect(state).toEqual({ focused: 'gc-table', focusedRows: 0, selected: [fourth] });
    expect(third).not.toBe(fourth);
    await page.keyboard.press('Escape');
  });

  it('works by keyboard only: row navigation opens the detail, Esc closes it, filters by keyboard', async () => {
    await openSession(CONCURRENT);
    await page.focus('[data-testid=gc-table]');
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('[data-testid=gc-detail] h3');
    const first = await page.textContent('[data-testid=gc-detail] h3');
    await page.keyboard.press('ArrowDown');
    // The next GC's detail is in (while it loads there is no h3 at all).
    await page.waitForFunction((f) => {
      const t = document.querySelector('[data-testid=gc-detail] h3')?.textContent;
      return t !== undefined && t !== f;
    }, first);
    // Tab goes on from the table to the drawer (its ✕ closes it), not through the views below the
    // table first (a keyboard user never reached the ✕).
    const tabToDrawer = async (): Promise<string> => {
      for (let k = 0; k < 25; k++) {
        await page.keyboard.press('Tab');
        const reached = await page.evaluate(() => {
          const a = document.activeElement;
          if (a?.closest('[data-testid=gc-detail]')) return a.getAttribute('data-testid') ?? 'in-detail';
          return a?.closest('[data-testid=allocations-view], section.breakdown') ? 'below' : '';
        });
        if (reached !== '') return reached;
      }
      return '';
    };
    expect(await tabToDrawer()).toBe('close-detail');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=gc-detail]', { state: 'detached' });
    // While a GC's detail is still loading, the drawer's ✕ is there for Tab and Enter too.
    await page.evaluate(() => ((window as unknown as { __delay: Record<string, number> }).__delay = { getGcDetail: 1500 }));
    await page.focus('[data-testid=gc-table]');
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('[data-testid=gc-detail]');
    expect(await page.textContent('[data-testid=gc-detail]')).toMatch(/Loading…/);
    expect(await tabToDrawer()).toBe('close-detail');
    expect(await page.textContent('[data-testid=gc-detail]')).toMatch(/Loading…/);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=gc-detail]', { state: 'detached' });
    await page.evaluate(() => delete (window as unknown as { __delay?: unknown }).__delay);
    // The held-back answer lands after the drawer closed: it must not open it again.
    await page.waitForTimeout(1700);
    expect(await page.locator('[data-testid=gc-detail]').count()).toBe(0);
    await page.focus('[data-testid=gc-table]');
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('[data-testid=gc-detail] h3');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=gc-detail]', { state: 'detached' });
    // Focus stayed in the table: the arrows still work.
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('[data-testid=gc-detail] h3');
    // End, Home and Page Down go to the last row, the first, and a screenful down, scrolled into view.
    const where = async (): Promise<{ index: number; rows: number; rendered: number; scrolledTo: 'top' | 'bottom' | 'middle' }> =>
      page.evaluate(() => {
        const vp = document.querySelector('[data-testid=gc-table] .viewport') as HTMLElement;
        const rendered = Array.from(document.querySelectorAll('[data-testid=gc-row]'));
        const sel = rendered.findIndex((r) => r.classList.contains('selected'));
        const first = Math.round(
          Number(/translateY\(([\d.]+)px\)/.exec((document.querySelector('[data-testid=gc-table] .rows') as HTMLElement).style.transform)?.[1] ?? 0) /
            rendered[0]!.getBoundingClientRect().height,
        );
        const rows = Number(document.querySelector('[data-testid=gc-table]')!.getAttribute('aria-rowcount'));
        const scrolledTo = vp.scrollTop === 0 ? 'top' : vp.scrollTop + vp.clientHeight >= vp.scrollHeight - 1 ? 'bottom' : 'middle';
        return { index: sel < 0 ? -1 : first + sel, rows, rendered: rendered.length, scrolledTo };
      });
    const { rows } = await where();
    await page.keyboard.press('End');
    // The viewport scrolls first and the virtual rows re-render on the next frame: wait for both.
    await expect.poll(where).toMatchObject({ index: rows - 1, scrolledTo: 'bottom' });
    await page.keyboard.press('Home');
    await expect.poll(where).toMatchObject({ index: 0, scrolledTo: 'top' });
    await page.keyboard.press('PageDown');
    await expect.poll(async () => (await where()).index).toBeGreaterThan(5);
    await page.keyboard.press('Escape');
    // A filter and its "clear", by keyboard.
    await page.focus('[data-testid=filter-gen0]');
    await page.keyboard.press('Space');
    await page.waitForSelector('[data-testid=clear-filters]');
    await page.focus('[data-testid=clear-filters]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=filters-active]', { state: 'detached' });
  });

  it('reaches the lanes by keyboard: Tab to the overview (arrows pan) and the pauses lane (arrows step GC by GC, every lane shows it, Enter opens it)', async () => {
    await openSession(CONCURRENT);
    await page.keyboard.press('Escape');
    // Zoomed in, so the overview has a window to move.
    await page.focus('[data-testid=reset-zoom]');
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await page.waitForSelector('[data-testid=range-label]');
    const win = async (): Promise<{ min: number; max: number; span: number; start: number }> =>
      page.evaluate(() => {
        const o = document.querySelector<HTMLElement>('[data-testid=overview]')!.dataset;
        return { min: Number(o.windowMin), max: Number(o.windowMax), span: Number(o.span), start: Number(o.start) };
      });
    const zoomed = await win();
    expect(zoomed.max - zoomed.min).toBeLessThan((zoomed.span - zoomed.start) / 3);
    // Tab from the toolbar's last button: the overview strip, then the pauses lane.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(
        () => document.activeElement?.closest('[data-testid=overview]') !== null && document.activeElement?.getAttribute('role') === 'slider',
      ),
    ).toBe(true);
    const w = zoomed.max - zoomed.min;
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await win()).min).toBeCloseTo(zoomed.min + w / 4, 6);
    await page.keyboard.press('End');
    await expect.poll(async () => (await win()).max).toBeCloseTo(zoomed.span, 6);
    await page.keyboard.press('Home');
    // The session's first event (seconds since the trace's start, the lanes' clock).
    await expect.poll(async () => (await win()).min).toBeCloseTo(zoomed.start, 9);
    // What a screen reader hears about the window.
    expect(await page.locator('[data-testid=overview] canvas').getAttribute('aria-valuetext')).toMatch(/^lanes show 0\.00 s – [\d.]+ s of [\d.]+ s$/);
    // The whole session again, then the pauses lane.
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await win()).min).toBeCloseTo(zoomed.start, 9);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('chart-pauses');
    const hover = async (): Promise<string> => (await page.textContent('[data-testid=hover-gc]')) ?? '';
    const label = (n: number): RegExp => new RegExp(`^GC #${n.toLocaleString('en-US')} · gen\\d`);
    // The lanes' order is the table's by time: its first two and last two rows.
    const numbersByTime = async (): Promise<number[]> => {
      await page.click('[data-testid=sort-time]');
      if ((await page.textContent('[data-testid=sort-time]'))!.includes('▼')) await page.click('[data-testid=sort-time]');
      const first = (await rowCells()).slice(0, 2).map((r) => Number(r[0]!.replace(/,/g, '')));
      await page.click('[data-testid=sort-time]');
      const last = (await rowCells())
        .slice(0, 2)
        .map((r) => Number(r[0]!.replace(/,/g, '')))
        .reverse();
      return [...first, ...last];
    };
    const [n0, n1, nLastButOne, nLast] = await numbersByTime();
    expect(new Set([n0, n1, nLastButOne, nLast]).size).toBe(4);
    await page.focus('[data-testid=chart-pauses]');
    await page.keyboard.press('Home');
    await expect.poll(hover).toMatch(label(n0!));
    await page.keyboard.press('ArrowRight');
    await expect.poll(hover).toMatch(label(n1!));
    // The other lanes show the same GC's values in their legends (the shared cursor), as hovering does.
    const heapGen0 = async (): Promise<string> =>
      page.evaluate(() => document.querySelector('[data-testid=chart-heap] .u-legend .u-series:nth-child(2) .u-value')?.textContent ?? '');
    await expect.poll(heapGen0).toMatch(/\d/);
    await page.keyboard.press('End');
    await expect.poll(hover).toMatch(label(nLast!));
    await page.keyboard.press('ArrowLeft');
    const second = nLastButOne!;
    await expect.poll(hover).toMatch(label(second));
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid=gc-detail] h3')?.textContent?.startsWith(`GC #${n} `),
      second.toLocaleString('en-US'),
    );
    // With the detail open, → moves on and the detail follows (it stayed on the GC Enter opened).
    await page.keyboard.press('ArrowRight');
    await expect.poll(hover).toMatch(label(nLast!));
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid=gc-detail] h3')?.textContent?.startsWith(`GC #${n} `),
      nLast!.toLocaleString('en-US'),
    );
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=gc-detail]', { state: 'detached' });
    // Leaving the lane takes its cursor away: no GC named, the hint back.
    await page.keyboard.press('Tab');
    await expect.poll(hover).toBe('');
  });

  it('says which column is sorted to assistive technology, and what is wrong with a Pause ≥ bound', async () => {
    await openSession(CONCURRENT);
    const gcs = reports[CONCURRENT]!.gcs;
    await page.click('[data-testid=sort-number]');
    const arrow = (await page.textContent('[data-testid=sort-number]'))!;
    expect(await page.getAttribute('[data-testid=sort-number]', 'aria-sort')).toBe(arrow.includes('▼') ? 'descending' : 'ascending');
    expect(await page.getAttribute('[data-testid=sort-time]', 'aria-sort')).toBeNull();
    await page.click('[data-testid=sort-number]');
    expect(await page.getAttribute('[data-testid=sort-number]', 'aria-sort')).toBe(arrow.includes('▼') ? 'ascending' : 'descending');
    const box = page.locator('[data-testid=filter-min-pause]');
    const count = async (): Promise<string> => (await page.textContent('[data-testid=gc-row-count]')) ?? '';
    await box.fill('-5');
    await expect.poll(async () => page.textContent('[data-testid=min-pause-problem]')).toMatch(/0 ms or more/);
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await count()).toBe(`${gcs.length.toLocaleString('en-US')} of ${gcs.length.toLocaleString('en-US')} GCs`);
    await box.fill('1000000000');
    const longest = Math.max(...gcs.map((g) => g.pauseDurationMSec));
    await expect
      .poll(async () => page.textContent('[data-testid=min-pause-problem]'))
      .toBe(`over the longest pause of the session (${formatMs(longest)}): no GC can match`);
    await box.fill('1');
    await expect.poll(async () => page.locator('[data-testid=min-pause-problem]').count()).toBe(0);
    expect(await box.getAttribute('aria-invalid')).toBe('false');
    const atLeast1 = gcs.filter((g) => g.pauseDurationMSec >= 1).length;
    await expect.poll(count).toBe(`${atLeast1.toLocaleString('en-US')} of ${gcs.length.toLocaleString('en-US')} GCs`);
    await page.click('[data-testid=clear-filters]');
  });

  it('shows the Sessions page at 1280 px with duration, % paused, GC mode and when the trace was taken, every action on screen', async () => {
    await page.click('[data-testid=nav-library]');
    await page.waitForSelector('[data-testid=session-row]');
    const heads = (await page.locator('[data-testid=session-list] thead th').allTextContents()).map((h) => h.replace(/[▲▼]/g, '').trim());
    for (const h of ['Duration', '% paused', 'GC mode', 'Taken']) expect(heads).toContain(h);
    // Newest taken first (the traces here were taken years before they were imported, in another order).
    const taken = async (): Promise<number[]> =>
      (await page.locator('[data-testid=session-row]').evaluateAll((els) => els.map((e) => e.getAttribute('data-taken')!))).map((t) => Date.parse(t));
    const byTaken = await taken();
    expect(byTaken.length).toBeGreaterThan(2);
    expect(byTaken).toEqual(byTaken.slice().sort((a, b) => b - a));
    expect(await page.getAttribute('[data-testid=session-list] th[aria-sort=descending]', 'aria-sort')).toBe('descending');
    // A header sorts by its column; a second click turns the order round.
    const counts = (): Promise<number[]> =>
      page.locator('[data-testid=session-row]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-gc-count'))));
    // Anywhere in the header cell, not only on its words: here its far corner (the label is right-aligned).
    const cell = (await page.locator('[data-testid=session-list] th', { has: page.locator('[data-testid=sessions-sort-gcs]') }).boundingBox())!;
    await page.mouse.click(cell.x + 3, cell.y + cell.height - 2);
    const most = await counts();
    expect(most).toEqual(most.slice().sort((a, b) => b - a));
    await page.click('[data-testid=sessions-sort-gcs]');
    expect(await counts()).toEqual(most.slice().sort((a, b) => a - b));
    await page.click('[data-testid=sessions-sort-taken]');
    expect(await taken()).toEqual(byTaken);
    const row = page.locator('[data-testid=session-row]', { has: page.locator(`text=${CONCURRENT}`) });
    for (const sel of ['[data-testid=edit-session]', '[data-testid=export-session]', '[data-testid=delete-session]']) {
      const b = (await row.locator(sel).boundingBox())!;
      expect(b.x + b.width, sel).toBeLessThanOrEqual(1280);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    const start = reports[CONCURRENT]!.trace.startTimeUtc;
    const expected = await page.evaluate(
      (t) => new Date(t).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
      start,
    );
    expect(await row.locator('[data-testid=session-taken]').textContent()).toBe(expected);
    expect(await row.locator('[data-testid=session-gc-mode]').textContent()).toBe('workstation, concurrent');
    expect(await row.locator('[data-testid=session-paused]').textContent()).not.toBe('n/a');
    await shot('sessions-1280');
  });

  it('Record on a process being recorded opens that recording, and Stop ends it', async (ctx) => {
    if (skipOrFail(await dotnetMissingReason(), 'recording in the browser')) ctx.skip();
    await buildWorkload();
    const child = spawn('dotnet', [WORKLOAD_DLL, '--scenario', 'churn', '--seconds', '30', '--pause-ms', '30'], {
      env: { ...process.env, DOTNET_gcServer: '0', ...GEN0_BUDGET_ENV },
      stdio: 'ignore',
    });
    try {
      await page.evaluate(() => (location.hash = '#/'));
      const row = page.locator(`[data-testid=process-row][data-pid="${child.pid}"]`);
      await row.waitFor({ timeout: 20000 });
      await row.locator('[data-testid=record-button]').click();
      await page.waitForSelector('[data-testid=live-status]', { timeout: 20000 });
      const recording = page.url();
      // Back on Home, the process offers its running recording instead of a second one.
      await page.evaluate(() => (location.hash = '#/'));
      await row.locator('[data-testid=open-recording]').waitFor({ timeout: 10000 });
      expect(await row.locator('[data-testid=record-button]').count()).toBe(0);
      await row.locator('[data-testid=open-recording]').click();
      await page.waitForSelector('[data-testid=live-status]');
      expect(page.url()).toBe(recording);
      await page.click('[data-testid=stop-recording]');
      await page.waitForSelector('[data-testid=session-status]', { timeout: 10000 });
      expect(await page.textContent('[data-testid=session-status]')).toBe('complete');
      // One session for the process, not two.
      await page.click('[data-testid=nav-library]');
      await page.waitForSelector('[data-testid=session-row]');
      expect(await page.locator('[data-testid=session-row]', { hasText: `(pid ${child.pid})` }).count()).toBe(1);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('looks right at 1920×1080 and 1280×800 (screenshots of the session view)', async () => {
    for (const [w, h] of [
      [1280, 800],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await openSession(LARGE);
      await page.evaluate(() => window.scrollTo(0, 0));
      // Every lane drawn at this size and the findings in: a screenshot of the view as a user sees it once it has settled.
      await page
        .waitForFunction(
          () =>
            Array.from(document.querySelectorAll<HTMLElement>('[data-testid^=chart-]')).every((e) => Number(e.dataset.points ?? 0) > 0) &&
            document.querySelector('[data-testid=findings]')?.textContent?.includes('diagnosing') !== true,
          undefined,
          { timeout: 10_000 },
        )
        .catch(() => undefined);
      await page.waitForTimeout(300);
      // The hint line above the lanes is read whole, its keyboard part included (it was cut at 1280 px).
      expect(
        await page.evaluate(() => {
          const l = document.querySelector('[data-testid=lanes-status]')!;
          return l.scrollWidth <= l.clientWidth;
        }),
        `hint at ${w} px`,
      ).toBe(true);
      await shot(`session-${w}x${h}`);
      await page.locator('[data-testid=gc-row]').nth(2).click();
      await page.waitForSelector('[data-testid=gc-detail] h3');
      await shot(`session-detail-${w}x${h}`);
      await page.keyboard.press('Escape');
    }
    // A Server GC GC's detail (per-heap table) for the README.
    await page.setViewportSize({ width: 1280, height: 800 });
    await openSession(SERVER);
    await openGc(12);
    expect(await page.locator('[data-testid=per-heap] tbody tr').count()).toBe(2);
    await shot('gc-detail-server-1280x800');
    await page.keyboard.press('Escape');
  });
});
