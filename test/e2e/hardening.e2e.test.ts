/// <reference lib="dom" />
/**
 * What a browser user sees of issue 19's fixes, against a real `gcscope serve` in Chromium:
 * uploading something that is not a trace (an empty file, a bzip2 zip) gives an error toast that
 * names their file (not the server's staged copy) and stores no session. Screenshots at 1280x800
 * and 1920x1080 under test-output/e2e-hardening/.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchBrowser, serve, type Served } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { FIXTURES } from '../helpers/fixtures.js';

const OUT = join(process.cwd(), 'test-output', 'e2e-hardening');
let skip = false;
let browser: Browser;
let server: Served;
let page: Page;

beforeAll(async () => {
  skip = skipOrFail(chromiumMissingReason(), 'browser end-to-end tests');
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  server = await serve(join(OUT, 'e2e.db'));
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
});

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function uploadAndReadError(name: string, bytes: Buffer): Promise<string> {
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=home]');
  await page.setInputFiles('[data-testid=file-input]', { name, mimeType: 'application/octet-stream', buffer: bytes });
  const toast = page.locator('[data-testid=toast-error]').last();
  await toast.waitFor({ timeout: 20000 });
  return (await toast.textContent()) ?? '';
}

async function shots(name: string): Promise<void> {
  for (const [w, h] of [
    [1280, 800],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: join(OUT, `${name}-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('uploads that are not traces, in the browser', () => {
  it('an empty file: the toast names it and says it is empty; nothing is stored', async () => {
    const text = await uploadAndReadError('empty-upload.nettrace', Buffer.alloc(0));
    expect(text).toMatch(/empty-upload\.nettrace: not a \.NET trace: the file is empty/);
    expect(text).not.toMatch(/gcscope-uploads/);
    await shots('empty-upload');
    const s = await runCli(['sessions', '--db', join(OUT, 'e2e.db'), '--json']);
    expect((JSON.parse(s.stdout) as { sessions: unknown[] }).sessions).toEqual([]);
  });

  it('a zip compressed with bzip2: the toast says "unsupported compression"', async () => {
    const text = await uploadAndReadError('trace-bzip2.zip', readFileSync(join(FIXTURES, 'bad', 'bzip2-entry.zip')));
    expect(text).toMatch(/trace-bzip2\.zip: unsupported compression: .*bzip2/);
    await shots('bzip2-upload');
  });
});
