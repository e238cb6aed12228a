/**
 * Electron hardening (the Electron security checklist; src-main/app/README.md lists what is hardened): the
 * window's web preferences, the Content-Security-Policy, no navigation, no new windows, no
 * permissions, and the check that an IPC call comes from our own top frame.
 */
import type { BrowserWindowConstructorOptions, IpcMainInvokeEvent, WebContents } from 'electron';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://gcscope`;

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function webPreferences(preload: string): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    spellcheck: false,
    webviewTag: false,
  };
}

/** Only our own top frame, served from app://gcscope, may call the backend. */
export function isTrustedSender(e: IpcMainInvokeEvent, main: WebContents | undefined): boolean {
  const frame = e.senderFrame;
  if (frame === null || main === undefined || e.sender !== main) return false;
  if (frame !== e.sender.mainFrame) return false;
  try {
    // Node's URL gives non-special schemes an opaque origin ("null"): compare scheme and host.
    const u = new URL(frame.url);
    return u.protocol === `${APP_SCHEME}:` && u.host === 'gcscope';
  } catch {
    return false;
  }
}

/**
 * Whether a URL is our own renderer: scheme and host compared as parsed parts. A string prefix
 * test ("starts with app://gcscope") would also pass app://gcscope.evil/ or app://gcscope@evil/.
 * (Node's URL gives non-special schemes an opaque origin, so origin strings cannot be compared.)
 */
export function isAppUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === `${APP_SCHEME}:` && u.host === 'gcscope' && u.username === '' && u.password === '' && u.port === '';
}

/** will-navigate, will-redirect and will-frame-navigate: only to our own pages. */
export function navigationAllowed(url: string): boolean {
  return isAppUrl(url);
}

/** Every permission request and check (camera, notifications, clipboard, …): refused. */
export function permissionGranted(_permission: string): boolean {
  return false;
}

/** WebHID, WebUSB, Web Serial and Bluetooth device access: refused. */
export function devicePermissionGranted(_deviceType: string): boolean {
  return false;
}

/** DevTools belong to development builds; a packaged app has neither the menu item nor the window. */
export function devToolsAllowed(isPackaged: boolean): boolean {
  return !isPackaged;
}

export interface LockDownOptions {
  allowDevTools: boolean;
}

/**
 * Hardening of one WebContents (every one the app creates, see guardAllWebContents): no
 * navigation, redirect or frame navigation away from app://gcscope, no new windows, no
 * <webview>, no permissions or devices, and no DevTools in packaged builds.
 */
export function lockDown(contents: WebContents, opts: LockDownOptions): void {
  const guard = (e: { url: string; preventDefault(): void }): void => {
    if (!navigationAllowed(e.url)) e.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-frame-navigate', guard);
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  if (!opts.allowDevTools) contents.on('devtools-opened', () => contents.closeDevTools());
  const ses = contents.session;
  ses.setPermissionRequestHandler((_wc, permission, cb) => cb(permissionGranted(permission)));
  ses.setPermissionCheckHandler((_wc, permission) => permissionGranted(permission));
  ses.setDevicePermissionHandler((d) => devicePermissionGranted(d.deviceType));
  // Device pickers: answer "no device" instead of letting Chromium pick one.
  ses.on('select-hid-device', (e, _d, cb) => {
    e.preventDefault();
    cb(null);
  });
  ses.on('select-usb-device', (e, _d, cb) => {
    e.preventDefault();
    cb();
  });
  ses.on('select-serial-port', (e, _ports, _wc, cb) => {
    e.preventDefault();
    cb('');
  });
  contents.on('select-bluetooth-device', (e, _d, cb) => {
    e.preventDefault();
    cb('');
  });
}

/** The part of Electron's `app` the guard needs (an EventEmitter in tests). */
export interface WebContentsSource {
  on(event: 'web-contents-created', listener: (event: unknown, contents: WebContents) => void): unknown;
}

/**
 * Hardens every WebContents the moment it exists (windows, frames' contents, DevTools, anything
 * a future change adds), not only the main window.
 */
export function guardAllWebContents(app: WebContentsSource, opts: LockDownOptions): void {
  app.on('web-contents-created', (_e, contents) => lockDown(contents, opts));
}
