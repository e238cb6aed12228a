/**
 * Electron hardening decisions (issue 19 defect 13), factored out of app/main.ts so they can be
 * checked here: Electron cannot start on this machine, so the wiring is driven through
 * EventEmitters standing in for `app`, a WebContents and its session, and everything else is
 * typechecked.
 */
import { EventEmitter } from 'node:events';
import type { WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { devicePermissionGranted, devToolsAllowed, guardAllWebContents, isAppUrl, navigationAllowed, permissionGranted } from '../../src-main/app/security.js';

describe('navigation targets are compared by scheme and host, not by string prefix', () => {
  it('allows our own pages', () => {
    for (const u of ['app://gcscope/index.html', 'app://gcscope/', 'app://gcscope/assets/app.js?x=1#y']) expect(navigationAllowed(u), u).toBe(true);
  });
  it('refuses look-alikes a prefix check let through, and everything else', () => {
    for (const u of [
      'app://gcscope.evil.example/',
      'app://gcscope@evil.example/',
      'app://gcscopex/',
      'app://gcscope:8080/',
      'app://user:pw@gcscope/',
      'https://gcscope/',
      'http://127.0.0.1/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
      '',
    ]) {
      expect(navigationAllowed(u), u).toBe(false);
      expect(isAppUrl(u), u).toBe(false);
    }
  });
});

describe('permissions, devices and DevTools', () => {
  it('refuses every permission and every device kind', () => {
    for (const p of ['media', 'notifications', 'clipboard-read', 'geolocation', 'fullscreen', 'openExternal']) expect(permissionGranted(p)).toBe(false);
    for (const d of ['hid', 'serial', 'usb', 'bluetooth']) expect(devicePermissionGranted(d)).toBe(false);
  });
  it('offers DevTools only in development builds', () => {
    expect(devToolsAllowed(true)).toBe(false);
    expect(devToolsAllowed(false)).toBe(true);
  });
});

/** A WebContents and session as far as lockDown uses them. */
function fakeContents(): { contents: WebContents; calls: Record<string, unknown>; emitter: EventEmitter; session: EventEmitter } {
  const calls: Record<string, unknown> = { closeDevTools: 0 };
  const session = Object.assign(new EventEmitter(), {
    setPermissionRequestHandler: (h: unknown) => (calls.permissionRequest = h),
    setPermissionCheckHandler: (h: unknown) => (calls.permissionCheck = h),
    setDevicePermissionHandler: (h: unknown) => (calls.devicePermission = h),
  });
  const emitter = Object.assign(new EventEmitter(), {
    session,
    setWindowOpenHandler: (h: unknown) => (calls.windowOpen = h),
    closeDevTools: () => (calls.closeDevTools = (calls.closeDevTools as number) + 1),
  });
  return { contents: emitter as unknown as WebContents, calls, emitter, session };
}

function navEvent(url: string): { url: string; prevented: boolean; preventDefault(): void } {
  return {
    url,
    prevented: false,
    preventDefault() {
      this.prevented = true;
    },
  };
}

describe('web-contents-created guard', () => {
  const app = new EventEmitter();
  guardAllWebContents(app, { allowDevTools: false });
  // Any WebContents, not only the main window's: here one the app did not create itself.
  const { contents, calls, emitter, session } = fakeContents();
  app.emit('web-contents-created', {}, contents);

  for (const ev of ['will-navigate', 'will-redirect', 'will-frame-navigate']) {
    it(`${ev}: blocks other origins and allows app://gcscope`, () => {
      const bad = navEvent('app://gcscope.evil.example/x');
      emitter.emit(ev, bad, bad.url);
      expect(bad.prevented).toBe(true);
      const good = navEvent('app://gcscope/index.html');
      emitter.emit(ev, good, good.url);
      expect(good.prevented).toBe(false);
    });
  }

  it('denies new windows and <webview>', () => {
    expect((calls.windowOpen as () => { action: string })()).toEqual({ action: 'deny' });
    const e = navEvent('');
    emitter.emit('will-attach-webview', e, {}, {});
    expect(e.prevented).toBe(true);
  });

  it('denies permission requests, checks and devices on its session', async () => {
    const granted = await new Promise<boolean>((r) =>
      (calls.permissionRequest as (wc: unknown, p: string, cb: (g: boolean) => void) => void)(contents, 'media', r),
    );
    expect(granted).toBe(false);
    expect((calls.permissionCheck as (wc: unknown, p: string) => boolean)(contents, 'clipboard-read')).toBe(false);
    expect((calls.devicePermission as (d: { deviceType: string }) => boolean)({ deviceType: 'usb' })).toBe(false);
    const e = navEvent('');
    let picked: unknown = 'not called';
    session.emit('select-hid-device', e, {}, (id: unknown) => (picked = id));
    expect(e.prevented).toBe(true);
    expect(picked).toBeNull();
  });

  it('closes DevTools in a packaged build', () => {
    emitter.emit('devtools-opened');
    expect(calls.closeDevTools).toBe(1);
  });
});
