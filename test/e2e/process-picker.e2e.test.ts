/// <reference lib="dom" />
/**
 * Opening a machine-wide trace in a real browser (Chromium against the app's web server): a trace
 * holding several .NET processes with GCs (here the made-up machine-wide format of
 * test/helpers/machine-toy-format.ts, standing in for a Windows .etl) asks which processes to
 * import, showing their names, PIDs and GC counts with the one with most GCs ticked; the process
 * picked is imported as a session of its own and opened, with its GC count. The server runs in
 * this process (the service and web server from the sources, imports in this thread), since the
 * made-up format is registered only here.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerTraceFormat, unregisterTraceFormat } from '../../src-main/recording/trace-formats.js';
import type { ProfilerService } from '../../src-main/service/profiler-service.js';
import { chromiumMissingReason } from '../helpers/browser.js';
import { skipOrFail } from '../helpers/environment.js';
import { openTraceExpectingPicker, processPickerRows, screenshotsAtBothSizes, startInProcessApp, type InProcessApp } from '../helpers/in-process-app.js';
import { MACHINE_TOY_FORMAT, machineTrace, THREE_DOTNET } from '../helpers/machine-toy-format.js';

const TRACE = Buffer.from(machineTrace(THREE_DOTNET));
let skip = false;
let app: InProcessApp | undefined;
let page: Page;
let service: ProfilerService;

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'process picker end-to-end test');
  if (skip) return;
  registerTraceFormat(MACHINE_TOY_FORMAT);
  app = await startInProcessApp('e2e-process-picker');
  ({ page, service } = app);
}, 120_000);

afterAll(async () => {
  await app?.close();
  unregisterTraceFormat(MACHINE_TOY_FORMAT);
});

describe('opening a trace of several .NET processes', () => {
  it('asks which processes, with names, PIDs and GC counts, the one with most GCs ticked', async () => {
    await page.goto(app!.web.url);
    await page.waitForSelector('[data-testid=home]');
    await openTraceExpectingPicker(page, 'machine.etl', TRACE);
    const rows = await processPickerRows(page);
    // Idle.exe ran no GC: not offered.
    expect(rows).toEqual([
      ['1234', 'Test.x64.exe', '264', true],
      ['5678', 'Worker.exe', '40', false],
    ]);
    expect(await page.textContent('[data-testid=process-picker]')).toMatch(/holds 2 \.NET processes that ran GCs \(and 1 other that ran none\)/);
    await screenshotsAtBothSizes(page, app!.out, 'picker');
  });

  it('imports the process picked as its own session and opens it with its GCs', async () => {
    await page.click('[data-testid=pick-row][data-pid="1234"] [data-testid=pick-check]');
    await page.click('[data-testid=pick-row][data-pid="5678"] [data-testid=pick-check]');
    expect(await page.textContent('[data-testid=picked-count]')).toBe('1 session will be imported.');
    await page.click('[data-testid=pick-import]');
    await page.waitForFunction(() => /^#\/session\/\d+$/.test(location.hash), undefined, { timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=tile-gc-count]')?.textContent?.trim() === '40', undefined, { timeout: 60_000 });
    expect(await page.isVisible('[data-testid=process-picker]')).toBe(false);
    const sessions = await service.listSessions();
    expect(sessions.map((s) => [s.name, s.processName, s.processId, s.gcCount])).toEqual([['Worker.exe (PID 5678)', 'Worker.exe', 5678, 40]]);
  });

  it('Cancel imports nothing; Import as offered stores the process with most GCs beside the one stored before, and opens it', async () => {
    await openTraceExpectingPicker(page, 'machine-again.etl', TRACE);
    await page.click('[data-testid=pick-cancel]');
    await page.waitForSelector('[data-testid=process-picker]', { state: 'detached' });
    expect(await service.listSessions()).toHaveLength(1);
    await openTraceExpectingPicker(page, 'machine-again.etl', TRACE);
    // As offered: Test.x64.exe (most GCs), beside Worker.exe stored before.
    await page.click('[data-testid=pick-import]');
    await page.waitForFunction(() => document.querySelector('[data-testid=tile-gc-count]')?.textContent?.trim() === '264', undefined, { timeout: 60_000 });
    const sessions = await service.listSessions();
    expect(sessions.map((s) => [s.processId, s.gcCount]).sort()).toEqual([
      [1234, 264],
      [5678, 40],
    ]);
  });
});
