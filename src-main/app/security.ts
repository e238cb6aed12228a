/**
 * Electron hardening (Electron security checklist; shared reference code-models.md §5): the
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

export function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (e, url) => {
    if (!url.startsWith(APP_ORIGIN)) e.preventDefault();
  });
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.session.setPermissionRequestHandler((_wc, _permission, cb) => cb(false));
  contents.session.setPermissionCheckHandler(() => false);
}
