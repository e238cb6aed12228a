/**
 * Desktop notifications for watch captures (issue 17), shown by the main process with Electron's
 * Notification: the renderer's own Notification API stays refused like every other permission
 * (security.ts). Clicking one brings the window forward and opens the capture (the contract's
 * 'open-session' event). Types only from electron, so the wiring is testable with a stand-in.
 */
import type { NotificationConstructorOptions } from 'electron';
import type { CaptureInfo } from '../shared/capture.js';
import { formatInt } from '../shared/format.js';
import type { ProfilerService } from '../service/profiler-service.js';

/** What main.ts passes: Electron's Notification class (or a test's stand-in). */
export interface NotificationClass {
  isSupported(): boolean;
  new (options: NotificationConstructorOptions): { on(event: 'click', listener: () => void): unknown; show(): void };
}

/** The notification for a capture, or null when there is nothing to say (a failed write is reported in the app). */
export function captureNotice(c: CaptureInfo): { title: string; body: string } | null {
  if (c.status !== 'complete') return null;
  return { title: 'GCScope: a GC fired a watch trigger', body: `${c.trigger} on GC #${formatInt(c.gcNumber)}: ${c.detail}. Click to open the capture.` };
}

/** Shows a notification per capture until the returned function is called. */
export function notifyCaptures(service: Pick<ProfilerService, 'events' | 'emit'>, Notification: NotificationClass, focus: () => void): () => void {
  const onCapture = (c: CaptureInfo): void => {
    const notice = captureNotice(c);
    if (notice === null || !Notification.isSupported()) return;
    const n = new Notification({ title: notice.title, body: notice.body, silent: false });
    n.on('click', () => {
      focus();
      if (c.captureSessionId !== null) service.emit('open-session', { sessionId: c.captureSessionId });
    });
    n.show();
  };
  service.events.on('capture', onCapture);
  return () => void service.events.off('capture', onCapture);
}
