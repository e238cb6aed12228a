/**
 * The contract over `gcscope serve`'s WebSocket: the same BridgeApi shape the Electron preload
 * exposes, so the rest of the renderer cannot tell which backend it talks to. Requests carry an
 * id; responses come back as the contract's result envelope; events arrive unsolicited.
 */
import { PROFILER_METHODS, type ApiResult, type BridgeApi, type ProfilerEvent, type ProfilerEvents } from '../../src-main/shared/contract';
import { decodeWire, encodeWire } from '../../src-main/shared/wire';
import { benchMeasures } from './bench';

export function createWsBridge(url: string): BridgeApi {
  let next = 1;
  const waiting = new Map<number, (r: ApiResult<unknown>) => void>();
  /** The method of each request waiting for its answer (named in bench marks only). */
  const methods = new Map<number, string>();
  const listeners = new Map<ProfilerEvent, Set<(p: unknown) => void>>();
  let ws: WebSocket | undefined;
  let open: Promise<WebSocket> | undefined;

  const connect = (): Promise<WebSocket> => {
    if (open !== undefined && ws !== undefined && ws.readyState <= WebSocket.OPEN) return open;
    open = new Promise((resolve, reject) => {
      const s = new WebSocket(url);
      s.binaryType = 'arraybuffer';
      ws = s;
      s.onopen = () => resolve(s);
      s.onerror = () => reject(new Error('cannot reach the GCScope server'));
      s.onclose = () => {
        for (const [, cb] of waiting)
          cb({ ok: false, error: { code: 'disconnected', message: 'The connection to the GCScope server was lost. Is `gcscope serve` still running?' } });
        waiting.clear();
        open = undefined;
      };
      // Messages are handled one at a time in arrival order, a fetched answer included, so an
      // event sent after an answer is never seen before it.
      let inbox: Promise<void> = Promise.resolve();
      s.onmessage = (m) => {
        // A message that throws is reported as uncaught, as before, and does not stop the queue.
        inbox = inbox.then(() => handle(m.data as ArrayBuffer)).catch(reportError);
      };
    });
    return open;
  };

  type Message = { id?: number; result?: ApiResult<unknown>; event?: ProfilerEvent; payload?: unknown; answerAt?: string };
  const handle = async (data: ArrayBuffer): Promise<void> => {
    let msg = decodeWire(data) as Message;
    // A large answer is parked by the server and fetched over HTTP (web/server.ts, `reply`).
    if (typeof msg.answerAt === 'string' && typeof msg.id === 'number') msg = { id: msg.id, result: await fetchAnswer(msg.answerAt) };
    // bench/live-ui.ts: which message a long task was handling.
    if (benchMeasures()) performance.mark('gcscope:msg', { detail: msg.event ?? methods.get(msg.id ?? -1) ?? '?' });
    if (msg.event !== undefined) {
      for (const cb of listeners.get(msg.event) ?? []) cb(msg.payload);
    } else if (typeof msg.id === 'number') {
      waiting.get(msg.id)?.(msg.result!);
      waiting.delete(msg.id);
      methods.delete(msg.id);
    }
  };
  const fetchAnswer = async (path: string): Promise<ApiResult<unknown>> => {
    try {
      const r = await fetch(path, { credentials: 'same-origin', cache: 'no-store' });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return (decodeWire(await r.arrayBuffer()) as { result: ApiResult<unknown> }).result;
    } catch (e) {
      return {
        ok: false,
        error: {
          code: 'disconnected',
          message: `The answer from the GCScope server could not be fetched (${(e as Error).message}). Is \`gcscope serve\` still running?`,
        },
      };
    }
  };

  const call =
    (method: string) =>
    async (...args: unknown[]): Promise<ApiResult<unknown>> => {
      let s: WebSocket;
      try {
        s = await connect();
      } catch (e) {
        return { ok: false, error: { code: 'disconnected', message: (e as Error).message } };
      }
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        if (benchMeasures()) methods.set(id, method);
        s.send(encodeWire({ id, method, args }));
      });
    };

  const api: Record<string, unknown> = {};
  for (const m of PROFILER_METHODS) api[m] = call(m);
  api.on = <E extends ProfilerEvent>(event: E, cb: (p: ProfilerEvents[E]) => void): (() => void) => {
    let set = listeners.get(event);
    if (set === undefined) listeners.set(event, (set = new Set()));
    set.add(cb as (p: unknown) => void);
    void connect().catch(() => undefined);
    return () => set.delete(cb as (p: unknown) => void);
  };
  // lib/prefetch.ts: the page mounts once the socket is open and its first request sent.
  api.connected = (): Promise<void> => connect().then(() => undefined);
  return api as BridgeApi;
}
