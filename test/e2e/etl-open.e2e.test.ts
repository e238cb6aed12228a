/// <reference lib="dom" />
/**
 * A Windows .NET Framework trace opened in the app as a user would (Chromium against the app's
 * web server, the real PerfView file net.4.5.2.x64.etl.zip uploaded through Open trace): the
 * process picker offers Test.x64.exe (263 GCs) and PerfView.exe (1 GC); the session imported
 * says .NET Framework, does not blame the recording for the hard limit .NET Framework does not
 * have, and "who allocates" shows the allocating stack — the runtime's frames as clr.dll!0x…, the
 * program's as methods — with the trigger's caller a managed method.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissingReason } from '../helpers/browser.js';
import { skipOrFail } from '../helpers/environment.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { openTraceExpectingPicker, processPickerRows, screenshotsAtBothSizes, startInProcessApp, type InProcessApp } from '../helpers/in-process-app.js';

let skip = false;
let app: InProcessApp | undefined;
let page: Page;

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'ETL end-to-end test');
  if (skip) return;
  app = await startInProcessApp('e2e-etl-open');
  page = app.page;
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const shots = (name: string): Promise<void> => screenshotsAtBothSizes(page, app!.out, name);

describe('opening a PerfView .etl.zip of a .NET Framework app', () => {
  it('offers its two .NET processes with their GC counts, the busy one ticked', async () => {
    await page.goto(app!.web.url);
    await page.waitForSelector('[data-testid=home]');
    await openTraceExpectingPicker(page, 'net.4.5.2.x64.etl.zip', readFileSync(`${FIXTURES}etl/net.4.5.2.x64.etl.zip`));
    const rows = await processPickerRows(page);
    expect(rows).toEqual([
      ['3676', 'Test.x64.exe', '263', true],
      ['3988', 'PerfView.exe', '1', false],
    ]);
    await shots('picker');
  });

  it('imports Test.x64.exe: .NET Framework, no hard limit blamed on the recording, 263 GCs', async () => {
    await page.click('[data-testid=pick-import]');
    await page.waitForFunction(() => document.querySelector('[data-testid=tile-gc-count]')?.textContent?.trim() === '263', undefined, { timeout: 90_000 });
    expect(await page.textContent('[data-testid=session-view]')).toMatch(/Test\.x64\.exe · pid 3676 · \.NET Framework 4\.0\.30319\.34209/);
    await page.waitForSelector('[data-testid=headroom-summary]');
    const headroom = (await page.textContent('[data-testid=headroom-summary]'))!.replace(/\s+/g, ' ');
    expect(headroom).toMatch(/no hard limit: \.NET Framework has none/);
    expect(headroom).not.toMatch(/GCSettingsRundown/);
    await shots('session');
  });

  it('who allocates: the allocating stack from clr.dll!0x48041d up to Test.Program.Main, no bare addresses', async () => {
    const alloc = page.locator('[data-testid=allocations-view]');
    await alloc.scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-testid=call-tree-frame]');
    const frames = await page.$$eval('[data-testid=call-tree-frame]', (els) => els.map((e) => e.textContent!.trim()));
    expect(frames[0]).toMatch(/clr\.dll!0x48041d$/);
    expect(frames.some((f) => f.endsWith('Test.Program.Main(class System.String[])'))).toBe(true);
    expect(frames.filter((f) => /\? 0x/.test(f))).toEqual([]);
    expect(await page.textContent('[data-testid=stack-resolution-note]')).toMatch(/19 of 24 frames .* module!0xRVA/);
    await shots('allocations');
  });

  it('a GC’s detail names the managed caller that triggered it', async () => {
    await page.locator('[data-testid=gc-row]').first().click();
    await page.waitForFunction(() => /Caller: System\.TimeZoneInfo\./.test(document.body.textContent ?? ''), undefined, { timeout: 30_000 });
    await shots('gc-detail');
  });

  it('the Sessions page exports its raw trace as what it is: "raw .etl.zip", not ".nettrace"', async () => {
    await page.click('[data-testid=nav-library]');
    const row = page.locator('[data-testid=session-row]', { hasText: 'Test.x64.exe' }).first();
    await row.waitFor();
    expect(await row.locator('[data-testid=export-raw]').textContent()).toBe('raw .etl.zip');
  });
});
