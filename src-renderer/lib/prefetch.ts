/**
 * A page opened on a session (`#/session/12`: reloaded, or a link from `gcscope serve`) asks for
 * the session's data before the app is mounted. A long session's series is megabytes (12.9 MB
 * for 100,000 GCs), and it travels while the page builds instead of after. The session view takes
 * the answer once, with the live batches that arrived meanwhile (a recording's GCs after the
 * answer's snapshot must not be lost between the two).
 */
import type { SessionData } from '../../src-main/shared/contract';
import type { LiveBatch } from '../../src-main/shared/gc-series';
import { parseHash } from '../state/app.svelte';
import { api, on, whenConnected } from './api';

interface Prefetched {
  sessionId: number;
  data: Promise<SessionData>;
  /** Live batches of this session received since the request was sent. */
  batches: LiveBatch[];
  stop: () => void;
}

let pending: Prefetched | undefined;

/**
 * Starts loading the session a location hash names, if it names one. Resolves once the request
 * has gone out: mounting the app first would hold the socket's opening, and so the request, until
 * the page is built (it is built while the answer travels instead).
 */
export async function prefetchSession(hash: string): Promise<void> {
  const route = parseHash(hash);
  if (route.name !== 'session') return;
  await whenConnected();
  const { sessionId } = route;
  const batches: LiveBatch[] = [];
  const stop = on('live-batch', (b) => {
    if (b.sessionId === sessionId) batches.push(b);
  });
  // bench/ui.ts: the request is sent here, not when the view opens.
  performance.mark('gcscope:data-requested');
  const data = api.getSessionData(sessionId);
  // The view reports a failure when it takes the answer; until then it is not unhandled.
  data.catch(() => undefined);
  pending = { sessionId, data, batches, stop };
  // The call sends its request a few microtasks later: a task boundary passes them all.
  await new Promise((r) => setTimeout(r, 0));
}

/**
 * The prefetched answer for this session, once. Call it after subscribing to live batches: the
 * returned batches are the ones that arrived before, and its own subscription is ended here.
 */
export function takePrefetched(sessionId: number): Omit<Prefetched, 'stop' | 'sessionId'> | undefined {
  const p = pending;
  pending = undefined;
  p?.stop();
  return p !== undefined && p.sessionId === sessionId ? { data: p.data, batches: p.batches } : undefined;
}
