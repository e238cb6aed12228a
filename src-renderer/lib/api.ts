/**
 * The only module that knows where the backend is: Electron's preload (`window.profiler`) or the
 * `gcscope serve` WebSocket. It unwraps result envelopes into values or thrown ApiErrors, so the
 * rest of the renderer just awaits typed calls.
 */
import type { ApiError, BridgeApi, ProfilerApi, ProfilerEvent, ProfilerEvents } from '../../src-main/shared/contract';
import { PROFILER_METHODS } from '../../src-main/shared/contract';
import { createWsBridge } from './ws-bridge';

declare global {
  interface Window {
    profiler?: BridgeApi;
    profilerFiles?: { pathOf(file: File): string };
  }
}

/** The path of a file dropped or picked in the desktop app (Electron's preload knows it); undefined in a browser. */
export function pathOfDroppedFile(file: File): string | undefined {
  return window.profilerFiles?.pathOf(file);
}

export class ProfilerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function resolveBridge(): BridgeApi {
  if (window.profiler !== undefined) return window.profiler;
  const token = new URLSearchParams(location.search).get('token') ?? sessionStorage.getItem('gcscope-token') ?? '';
  if (token !== '') sessionStorage.setItem('gcscope-token', token);
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return createWsBridge(`${proto}//${location.host}/ws?token=${encodeURIComponent(token)}`);
}

export let bridge: BridgeApi = resolveBridge();

/** Tests substitute a fake bridge. */
export function setBridge(b: BridgeApi): void {
  bridge = b;
}

export const api = Object.fromEntries(
  PROFILER_METHODS.map((m) => [
    m,
    async (...args: unknown[]) => {
      const fn = bridge[m] as (...a: unknown[]) => Promise<{ ok: true; value: unknown } | { ok: false; error: ApiError }>;
      const r = await fn(...args);
      if (r.ok) return r.value;
      throw new ProfilerError(r.error.code, r.error.message);
    },
  ]),
) as unknown as ProfilerApi;

/**
 * Resolves when the backend can take requests: at once in the desktop app, once the WebSocket is
 * open in a browser (it never rejects: a failed connection is reported by the calls themselves).
 */
export function whenConnected(): Promise<void> {
  const c = (bridge as { connected?: () => Promise<void> }).connected;
  return c === undefined ? Promise.resolve() : c().catch(() => undefined);
}

export function on<E extends ProfilerEvent>(event: E, cb: (p: ProfilerEvents[E]) => void): () => void {
  return bridge.on(event, cb);
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
