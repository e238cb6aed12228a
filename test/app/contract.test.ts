/**
 * The contract is exposed exactly, and nothing else: the preload's bridge, the Electron IPC
 * handlers and the WebSocket bridge each carry every contract method and no other; calls from
 * other frames, with bad arguments, without the token or from another origin are refused.
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { channelOf, PROFILER_METHODS, type ProfilerApi } from '../../src-main/shared/contract.js';
import { decodeWire, encodeWire } from '../../src-main/shared/wire.js';
import { dispatch } from '../../src-main/service/dispatch.js';
import { startWebServer, type WebServer } from '../../src-main/web/server.js';

const invoked: { channel: string; args: unknown[] }[] = [];
const handlers = new Map<string, (e: unknown, ...a: unknown[]) => unknown>();
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  webUtils: { getPathForFile: () => '' },
  ipcRenderer: {
    invoke: (channel: string, ...args: unknown[]) => (invoked.push({ channel, args }), Promise.resolve({ ok: true, value: null })),
    on: vi.fn(),
    removeListener: vi.fn(),
  },
  ipcMain: { handle: (c: string, f: (e: unknown, ...a: unknown[]) => unknown) => handlers.set(c, f), removeHandler: (c: string) => handlers.delete(c) },
}));

/** A fake backend that records calls. */
function fakeApi(): ProfilerApi & { calls: string[] } {
  const calls: string[] = [];
  const api = Object.fromEntries(
    PROFILER_METHODS.map((m) => [m, async (...args: unknown[]) => (calls.push(m), { method: m, args })]),
  ) as unknown as ProfilerApi & { calls: string[] };
  api.calls = calls;
  return api;
}

describe('preload', () => {
  it("exposes exactly the contract's methods plus on(), each invoking its own channel", async () => {
    const { bridge } = await import('../../src-main/preload/index.js');
    expect(Object.keys(bridge).sort()).toEqual([...PROFILER_METHODS, 'on'].sort());
    for (const m of PROFILER_METHODS) await (bridge[m] as (...a: unknown[]) => Promise<unknown>)(1, 'x');
    expect(invoked.map((i) => i.channel)).toEqual(PROFILER_METHODS.map((m) => channelOf(m)));
  });
});

describe('Electron IPC handlers', () => {
  it('register one handler per contract method, and refuse calls not from our own top frame', async () => {
    const { registerIpc } = await import('../../src-main/app/ipc.js');
    const api = fakeApi();
    const main = { mainFrame: {} } as unknown as Electron.WebContents;
    const service = Object.assign(api, { events: new EventEmitter() });
    registerIpc(service as never, () => main);
    expect([...handlers.keys()].sort()).toEqual(PROFILER_METHODS.map((m) => channelOf(m)).sort());
    const trusted = { sender: main, senderFrame: Object.assign(main.mainFrame, { url: 'app://gcscope/index.html' }) };
    expect(await handlers.get(channelOf('listSessions'))!(trusted)).toMatchObject({ ok: true });
    const otherOrigin = { sender: main, senderFrame: { url: 'https://evil.example/' } };
    expect(await handlers.get(channelOf('listSessions'))!(otherOrigin)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const otherContents = { sender: {}, senderFrame: { url: 'app://gcscope/index.html' } };
    expect(await handlers.get(channelOf('listSessions'))!(otherContents)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });
});

describe('argument validation', () => {
  it('refuses unknown methods and bad arguments with a bad-request error', async () => {
    const api = fakeApi();
    expect(await dispatch(api, 'constructor', [])).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(await dispatch(api, 'getSessionData', ['1'])).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(await dispatch(api, 'startRecording', [12, 'everything'])).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(await dispatch(api, 'updateSession', [1, { name: 'x', admin: true }])).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(await dispatch(api, 'getSessionData', [3])).toMatchObject({ ok: true });
    expect(api.calls).toEqual(['getSessionData']);
  });
});

describe('web bridge', () => {
  let web: WebServer;
  const api = fakeApi();
  const events = new EventEmitter();
  beforeAll(async () => {
    const dir = join(process.cwd(), 'test-output', 'web-bridge');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
    web = await startWebServer({ api, events, rendererDir: dir });
  });
  afterAll(async () => web.close());

  const get = (path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders }> =>
    new Promise((resolve, reject) => {
      http
        .get(`${web.origin}${path}`, { headers }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, headers: res.headers });
        })
        .on('error', reject);
    });

  const connect = (query: string, origin: string): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws${query}`, { origin });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });

  it('binds to 127.0.0.1 and refuses a page request without the token', async () => {
    expect(web.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await get('/')).status).toBe(403);
    const ok = await get(`/?token=${web.token}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'/);
    expect(ok.headers['set-cookie']?.[0]).toMatch(/HttpOnly; SameSite=Strict/);
  });

  it('refuses a request for another Host (DNS rebinding)', async () => {
    expect((await get(`/?token=${web.token}`, { host: 'evil.example' })).status).toBe(403);
  });

  it('refuses a WebSocket without the token or from another origin', async () => {
    await expect(connect('', web.origin)).rejects.toThrow(/403/);
    await expect(connect(`?token=${web.token}`, 'https://evil.example')).rejects.toThrow(/403/);
    await expect(connect('?token=wrong', web.origin)).rejects.toThrow(/403/);
  });

  it("serves exactly the contract's methods and forwards events", async () => {
    const ws = await connect(`?token=${web.token}`, web.origin);
    const replies = new Map<number, unknown>();
    const pushed: unknown[] = [];
    ws.on('message', (d) => {
      const m = decodeWire(d as Buffer) as { id?: number; result?: unknown; event?: string };
      if (m.event !== undefined) pushed.push(m);
      else replies.set(m.id!, m.result);
    });
    const call = (id: number, method: string, args: unknown[]): Promise<unknown> =>
      new Promise((resolve) => {
        ws.send(encodeWire({ id, method, args }));
        const t = setInterval(() => {
          if (replies.has(id)) {
            clearInterval(t);
            resolve(replies.get(id));
          }
        }, 5);
      });
    expect(await call(1, 'listSessions', [])).toMatchObject({ ok: true });
    expect(await call(2, 'deleteEverything', [])).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    events.emit('sessions-changed', { reason: 'test' });
    await new Promise((r) => setTimeout(r, 50));
    expect(pushed).toEqual([{ event: 'sessions-changed', payload: { reason: 'test' } }]);
    ws.close();
  });
});

describe('web bridge: a large answer', () => {
  let web: WebServer;
  const events = new EventEmitter();
  beforeAll(async () => {
    const dir = join(process.cwd(), 'test-output', 'web-bridge-large');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
    // Every answer of 64 bytes or more counts as large here (a session view's threshold is 1 MiB).
    web = await startWebServer({ api: fakeApi(), events, rendererDir: dir, largeAnswerBytes: 64 });
  });
  afterAll(async () => web.close());

  const fetchBytes = (path: string, method = 'GET'): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> =>
    new Promise((resolve, reject) => {
      const req = http.request(`${web.origin}${path}`, { method }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });
  const open = async (): Promise<{ ws: WebSocket; ask: (id: number, method: string) => Promise<{ id: number; answerAt?: string; result?: unknown }> }> => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws?token=${web.token}`, { origin: web.origin });
    await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
    const ask = (id: number, method: string) =>
      new Promise<{ id: number; answerAt?: string; result?: unknown }>((resolve) => {
        ws.once('message', (d) => resolve(decodeWire(d as Buffer) as { id: number; answerAt?: string }));
        ws.send(encodeWire({ id, method, args: [] }));
      });
    return { ws, ask };
  };

  it('comes over the socket as a one-time path; fetching it with the token gives the answer once', async () => {
    const { ws, ask } = await open();
    const m = await ask(7, 'listSessions');
    expect(m.id).toBe(7);
    expect(m.result).toBeUndefined();
    expect(m.answerAt).toMatch(/^\/answer\/[A-Za-z0-9_-]{24}$/);
    // Like every other request, it needs the token.
    expect((await fetchBytes(m.answerAt!)).status).toBe(403);
    expect((await fetchBytes(`${m.answerAt!}?token=${web.token}`, 'HEAD')).status).toBe(405);
    const got = await fetchBytes(`${m.answerAt!}?token=${web.token}`);
    expect(got.status).toBe(200);
    expect(got.headers['cache-control']).toBe('no-store');
    expect(decodeWire(got.body)).toEqual({ id: 7, result: { ok: true, value: { method: 'listSessions', args: [] } } });
    const again = await fetchBytes(`${m.answerAt!}?token=${web.token}`);
    expect(again.status).toBe(404);
    expect(again.body.toString()).toMatch(/already fetched or has expired/);
    ws.close();
  });

  it('is dropped unfetched when its socket closes', async () => {
    const { ws, ask } = await open();
    const m = await ask(8, 'listSessions');
    ws.close();
    await new Promise((r) => setTimeout(r, 100));
    expect((await fetchBytes(`${m.answerAt!}?token=${web.token}`)).status).toBe(404);
  });
});
