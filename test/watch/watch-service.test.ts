/**
 * Watch mode at the contract's edge: settings are validated before anything attaches (a renderer
 * is untrusted), a trigger the user mistyped comes back as a readable bad-input error, and a
 * session's captures are listed (none for a plain imported session).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WATCH_SETTINGS } from '../../src-main/shared/capture.js';
import { dispatch } from '../../src-main/service/dispatch.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';

const DIR = join(process.cwd(), 'test-output', 'watch-service');
let svc: ProfilerService;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  svc = await ProfilerService.create({
    dbPath: join(DIR, 'w.db'),
    tracesDir: join(DIR, 'traces'),
    uploadDir: join(DIR, 'up'),
    mode: 'browser',
    version: 'test',
  });
});

afterAll(async () => {
  await svc?.close();
});

describe('startWatch and listCaptures over the contract', () => {
  it('refuses malformed settings before attaching, naming the field', async () => {
    const bad = await dispatch(svc, 'startWatch', [process.pid, { ...DEFAULT_WATCH_SETTINGS, ringMB: 0 }]);
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(!bad.ok && bad.error.message).toMatch(/ringMB/);
    const extra = await dispatch(svc, 'startWatch', [process.pid, { ...DEFAULT_WATCH_SETTINGS, shell: 'rm -rf /' }]);
    expect(extra).toMatchObject({ ok: false, error: { code: 'bad-request' } });
  });

  it('a mistyped trigger is a bad-input error saying what is wrong', async () => {
    const r = await dispatch(svc, 'startWatch', [process.pid, { ...DEFAULT_WATCH_SETTINGS, triggers: ['pause>200ms', 'kind=sometimes'] }]);
    expect(r).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    expect(!r.ok && r.error.message).toMatch(/^Trigger: kind must be one of blocking, background, foreground/);
  });

  it('a valid watch of a process that is not .NET fails to attach with the diagnostics error', async () => {
    const r = await dispatch(svc, 'startWatch', [process.pid, { ...DEFAULT_WATCH_SETTINGS, triggers: ['gen=2,kind=blocking'] }]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toMatch(/not a \.NET|diagnostics/i);
  });

  it('lists no captures for a session without any', async () => {
    expect(await dispatch(svc, 'listCaptures', [12345])).toEqual({ ok: true, value: [] });
  });
});
