/**
 * The desktop app's capture notifications (src-main/app/capture-notifications.ts), with a stand-in
 * for Electron's Notification: one per written capture, none for a failed one or where the OS has
 * no notifications, and a click opens the capture's session.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { notifyCaptures } from '../../src-main/app/capture-notifications.js';
import type { CaptureInfo } from '../../src-main/shared/capture.js';

const capture: CaptureInfo = {
  id: 1,
  sessionId: 3,
  createdAt: '',
  trigger: 'pause>200ms',
  detail: 'pause 412.3 ms > 200 ms',
  gcNumber: 812,
  gcStartMSec: 1,
  gcEndMSec: 2,
  fromMSec: 0,
  toMSec: 3,
  path: '/x.nettrace',
  bytes: 10,
  verbosePath: null,
  captureSessionId: 4,
  status: 'complete',
};

function setup(supported = true) {
  const shown: { title: string; body: string; click: () => void }[] = [];
  class FakeNotification {
    static isSupported(): boolean {
      return supported;
    }
    private click = (): void => undefined;
    constructor(private readonly o: { title?: string; body?: string }) {}
    on(_e: 'click', l: () => void): this {
      this.click = l;
      return this;
    }
    show(): void {
      shown.push({ title: this.o.title ?? '', body: this.o.body ?? '', click: () => this.click() });
    }
  }
  const events = new EventEmitter();
  const emitted: unknown[] = [];
  let focused = 0;
  const stop = notifyCaptures({ events, emit: ((e: string, p: unknown) => emitted.push([e, p])) as never }, FakeNotification, () => focused++);
  return { events, shown, emitted, focused: () => focused, stop };
}

describe('capture notifications in the desktop app', () => {
  it('shows one per written capture; clicking it focuses the window and opens the capture', () => {
    const t = setup();
    t.events.emit('capture', capture);
    expect(t.shown).toHaveLength(1);
    expect(t.shown[0]!.body).toBe('pause>200ms on GC #812: pause 412.3 ms > 200 ms. Click to open the capture.');
    t.shown[0]!.click();
    expect(t.focused()).toBe(1);
    expect(t.emitted).toEqual([['open-session', { sessionId: 4 }]]);
  });

  it('says nothing for a failed capture, where notifications are unsupported, or once stopped', () => {
    const t = setup();
    t.events.emit('capture', { ...capture, status: 'failed' });
    expect(t.shown).toHaveLength(0);
    t.stop();
    t.events.emit('capture', capture);
    expect(t.shown).toHaveLength(0);
    const u = setup(false);
    u.events.emit('capture', capture);
    expect(u.shown).toHaveLength(0);
  });
});
