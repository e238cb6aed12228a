/**
 * `gcscope serve`: the app's UI in a browser. Serves the built renderer and the contract over a
 * WebSocket, bound to 127.0.0.1 only, with a random access token: the first request must carry
 * `?token=…` (then a SameSite=Strict cookie carries it), the WebSocket must present it and come
 * from this server's own origin, and the Host header must be this server (against DNS
 * rebinding). Requests without it are refused. This is also how the renderer is tested in a real
 * browser, since Electron cannot start on a headless CI machine.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { PROFILER_EVENTS, type ProfilerApi, type ProfilerEvent } from '../shared/contract.js';
import { decodeWire, encodeWire } from '../shared/wire.js';
import { dispatch } from '../service/dispatch.js';
import type { EventEmitter } from 'node:events';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface WebServerOptions {
  api: ProfilerApi;
  events: EventEmitter;
  rendererDir: string;
  port?: number;
  /** Fixed token (tests); random otherwise. */
  token?: string;
}

export interface WebServer {
  url: string;
  origin: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export function contentSecurityPolicy(origin: string): string {
  const ws = origin.replace(/^http/, 'ws');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' ${ws}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function cookieToken(req: http.IncomingMessage): string | undefined {
  const m = /(?:^|;\s*)gcscope_token=([A-Za-z0-9_-]+)/.exec(req.headers.cookie ?? '');
  return m?.[1];
}

export async function startWebServer(o: WebServerOptions): Promise<WebServer> {
  const token = o.token ?? randomBytes(24).toString('base64url');
  const root = resolve(o.rendererDir);
  let origin = '';
  let port = 0;

  const hostOk = (req: http.IncomingMessage): boolean => req.headers.host === `127.0.0.1:${port}` || req.headers.host === `localhost:${port}`;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const refuse = (code: number, text: string): void => {
      res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(text);
    };
    if (!hostOk(req)) return refuse(403, 'GCScope: unexpected Host header.');
    const given = url.searchParams.get('token');
    const authorised = given === token || cookieToken(req) === token;
    if (!authorised) return refuse(403, 'GCScope: this page needs the access token. Open the full URL that `gcscope serve` printed.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(405, 'GCScope: method not allowed.');
    let rel = decodeURIComponent(url.pathname);
    if (rel === '/' || rel === '') rel = '/index.html';
    const file = normalize(join(root, rel));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return refuse(404, 'GCScope: not found.');
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    };
    if (extname(file) === '.html') {
      headers['content-security-policy'] = contentSecurityPolicy(origin);
      headers['x-frame-options'] = 'DENY';
    }
    if (given === token) headers['set-cookie'] = `gcscope_token=${token}; HttpOnly; SameSite=Strict; Path=/`;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    const okOrigin = req.headers.origin === origin || req.headers.origin === `http://localhost:${port}`;
    if (url.pathname !== '/ws' || !hostOk(req) || !okOrigin || url.searchParams.get('token') !== token) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
  });

  const sockets = new Set<WebSocket>();
  const forward = new Map<ProfilerEvent, (p: unknown) => void>();
  for (const ev of PROFILER_EVENTS) {
    const f = (payload: unknown): void => {
      const msg = encodeWire({ event: ev, payload });
      for (const s of sockets) if (s.readyState === s.OPEN) s.send(msg);
    };
    forward.set(ev, f);
    o.events.on(ev, f);
  }

  function serveSocket(ws: WebSocket): void {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('message', (data, isBinary) => {
      let msg: { id?: unknown; method?: unknown; args?: unknown };
      try {
        if (!isBinary) throw new Error('text frame');
        const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
        msg = decodeWire(buf) as typeof msg;
        if (msg === null || typeof msg !== 'object') throw new Error('not an object');
      } catch {
        ws.send(encodeWire({ id: null, result: { ok: false, error: { code: 'bad-request', message: 'Malformed message.' } } }));
        return;
      }
      void dispatch(o.api, msg.method, msg.args).then((result) => {
        if (ws.readyState === ws.OPEN) ws.send(encodeWire({ id: msg.id ?? null, result }));
      });
    });
  }

  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(o.port ?? 0, '127.0.0.1', () => res());
  });
  port = (server.address() as { port: number }).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    port,
    close: async () => {
      for (const [ev, f] of forward) o.events.off(ev, f);
      for (const s of sockets) s.terminate();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
