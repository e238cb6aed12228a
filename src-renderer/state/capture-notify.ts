/**
 * A watch's captures reach the user wherever they are in the app: an in-app message always, and in
 * a browser (`gcscope serve`) a desktop notification through the Notification API once the user
 * has allowed it (asked when they start a watch); clicking it opens the capture. The desktop app
 * shows Electron's native notification from the main process instead
 * (src-main/app/capture-notifications.ts): the renderer's permission stays refused there.
 */
import type { CaptureInfo } from '../../src-main/shared/capture';
import { formatInt } from '../../src-main/shared/format';
import { on } from '../lib/api';
import { app } from './app.svelte';

/** Asks for permission to notify (call from a user action, as browsers require). */
export function askNotificationPermission(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}

function describe(c: CaptureInfo): string {
  return `${c.trigger} on GC #${formatInt(c.gcNumber)}: ${c.detail}`;
}

/** Subscribes for the app's lifetime; returns the unsubscribe. */
export function notifyCaptures(): () => void {
  return on('capture', (c) => {
    if (c.status === 'failed') return app.error(`A watch capture could not be written (${describe(c)}).`);
    app.info_(`Captured ${describe(c)}.`);
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      const n = new Notification('GCScope: a GC fired a watch trigger', { body: `${describe(c)}. Click to open the capture.`, tag: `gcscope-capture-${c.id}` });
      n.onclick = () => {
        window.focus();
        if (c.captureSessionId !== null) app.openSession(c.captureSessionId);
      };
    }
  });
}
