/**
 * `gcscope serve`: the app's UI in a browser. Serves the built renderer and the contract over a
 * WebSocket, bound to 127.0.0.1 only, with a random access token: the first request must carry
 * `?token=…` (then a SameSite=Strict cookie carries it), the WebSocket must present it and come
 * from this server's own origin, and the Host header must be this server (against DNS
 * rebinding). Requests without it are refused. This is also how the renderer is tested in a real
 * browser, since Electron cannot start on a headless CI machine.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { extname, resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { PROFILER_EVENTS, type ProfilerApi, type ProfilerEvent } from '../shared/contract.js';
import { decodeWire, encodeWire } from '../shared/wire.js';
import { dispatch } from '../service/dispatch.js';
import type { EventEmitter } from 'node:events';
import { staticFilePath } from '../service/static-path.js';

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
  /** Answers of at least this many bytes are fetched over HTTP (see `reply`); tests lower it. */
  largeAnswerBytes?: number;
}

/** 1 MiB: a session view of ~10,000 GCs and more. */
const LARGE_ANSWER_BYTES = 1 << 20;
/** An answer nobody fetched is dropped after this long. */
const PARKED_ANSWER_MS = 60_000;
const ANSWER_PATH = '/answer/';

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

/**
 * The cookie that carries the token. Cookies are scoped by host, not port: one name per port
 * keeps a second `gcscope serve` from overwriting the first one's cookie (locking its tab out)
 * and keeps the token away from other loopback services that would see a fixed name.
 */
export function tokenCookieName(port: number): string {
  return `gcscope_token_${port}`;
}

function cookieToken(req: http.IncomingMessage, port: number): string | undefined {
  const name = tokenCookieName(port);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Constant-time token check: both sides are hashed first, so timingSafeEqual always compares
 * equal-length buffers and neither the content nor the length of the token leaks through timing.
 */
export function tokenMatches(given: unknown, token: string): boolean {
  if (typeof given !== 'string') return false;
  const h = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(h(given), h(token));
}

/** The request target as a URL, or null when it cannot be one (e.g. `//`, which reads as an empty host). */
function requestUrl(req: http.IncomingMessage, origin: string): URL | null {
  const raw = req.url ?? '/';
  // Only origin-form targets ("/path?query") are served; `//x` would parse as a host.
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  try {
    return new URL(raw, origin);
  } catch {
    return null;
  }
}

export async function startWebServer(o: WebServerOptions): Promise<WebServer> {
  const token = o.token ?? randomBytes(24).toString('base64url');
  const root = resolve(o.rendererDir);
  let origin = '';
  let port = 0;

  const hostOk = (req: http.IncomingMessage): boolean => req.headers.host === `127.0.0.1:${port}` || req.headers.host === `localhost:${port}`;

  const handleRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const refuse = (code: number, text: string): void => {
      res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(text);
    };
    if (!hostOk(req)) return refuse(403, 'GCScope: unexpected Host header.');
    const url = requestUrl(req, origin);
    if (url === null) return refuse(400, 'GCScope: bad request path.');
    const given = url.searchParams.get('token');
    const viaQuery = tokenMatches(given, token);
    if (!viaQuery && !tokenMatches(cookieToken(req, port), token))
      return refuse(403, 'GCScope: this page needs the access token. Open the full URL that `gcscope serve` printed.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(405, 'GCScope: method not allowed.');
    if (url.pathname.startsWith(ANSWER_PATH)) return sendParked(url.pathname.slice(ANSWER_PATH.length), req, res, refuse);
    const file = staticFilePath(root, url.pathname);
    if (file === null) return refuse(400, 'GCScope: bad request path.');
    let body: Buffer;
    try {
      if (!statSync(file).isFile()) return refuse(404, 'GCScope: not found.');
      body = readFileSync(file);
    } catch {
      return refuse(404, 'GCScope: not found.');
    }
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
    if (viaQuery) headers['set-cookie'] = `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  // No request, however malformed, may take the server down: anything unexpected is a 500 for
  // that request only.
  const server = http.createServer((req, res) => {
    try {
      handleRequest(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('GCScope: internal error.');
    }
  });
  server.on('clientError', (_err, socket: Duplex) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  wss.on('error', () => undefined);
  server.on('upgrade', (req, socket: Duplex, head) => {
    // A peer that resets mid-handshake must not become an unhandled 'error'.
    socket.on('error', () => socket.destroy());
    const url = requestUrl(req, origin);
    const okOrigin = req.headers.origin === origin || req.headers.origin === `http://localhost:${port}`;
    if (url === null || url.pathname !== '/ws' || !hostOk(req) || !okOrigin || !tokenMatches(url.searchParams.get('token'), token)) {
      socket.end(`HTTP/1.1 ${url === null ? '400 Bad Request' : '403 Forbidden'}\r\nConnection: close\r\n\r\n`);
      return;
    }
    try {
      wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
    } catch {
      socket.destroy();
    }
  });

  const sockets = new Set<WebSocket>();
  const forward = new Map<ProfilerEvent, (p: unknown) => void>();
  for (const ev of PROFILER_EVENTS) {
    const f = (payload: unknown): void => {
      const msg = encodeWire({ event: ev, payload }, { fill: true });
      for (const s of sockets) if (s.readyState === s.OPEN) s.send(msg);
    };
    forward.set(ev, f);
    o.events.on(ev, f);
  }

  /**
   * A large answer (a long session's view: 10 MB for 100,000 GCs) is parked and the socket
   * carries only where to fetch it. Chromium receives a WebSocket message on the page's main
   * thread (~6 ms per MB of long task there, 10 MB in ~100 ms) and a fetch off it (~70 ms, no
   * long task). The path is a random one-time key, and the request needs the token like any
   * other; an answer is served once, and dropped unfetched after a minute or when its socket
   * closes.
   */
  const parked = new Map<string, { frame: Uint8Array; ws: WebSocket; timer: NodeJS.Timeout }>();
  const dropParked = (key: string): void => {
    const p = parked.get(key);
    if (p === undefined) return;
    clearTimeout(p.timer);
    parked.delete(key);
  };
  function sendParked(key: string, req: http.IncomingMessage, res: http.ServerResponse, refuse: (code: number, text: string) => void): void {
    const p = parked.get(key);
    if (p === undefined) return refuse(404, 'GCScope: this answer was already fetched or has expired.');
    if (req.method !== 'GET') return refuse(405, 'GCScope: method not allowed.');
    dropParked(key);
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(p.frame.byteLength),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    res.end(p.frame);
  }

  const reply = (ws: WebSocket, value: { id: unknown; result: unknown }): void => {
    if (ws.readyState !== ws.OPEN) return;
    let frame: Uint8Array;
    try {
      frame = encodeWire(value, { fill: true });
    } catch {
      frame = encodeWire({ id: null, result: { ok: false, error: { code: 'internal', message: 'The answer could not be encoded.' } } });
    }
    if (frame.byteLength >= (o.largeAnswerBytes ?? LARGE_ANSWER_BYTES)) {
      const key = randomBytes(18).toString('base64url');
      parked.set(key, { frame, ws, timer: setTimeout(() => dropParked(key), PARKED_ANSWER_MS).unref() });
      frame = encodeWire({ id: value.id, answerAt: `${ANSWER_PATH}${key}` });
    }
    ws.send(frame, () => undefined);
  };
  const dropSocket = (ws: WebSocket): void => {
    sockets.delete(ws);
    for (const [key, p] of parked) if (p.ws === ws) dropParked(key);
  };

  function serveSocket(ws: WebSocket): void {
    sockets.add(ws);
    ws.on('close', () => dropSocket(ws));
    // Protocol errors (oversize, unmasked or reserved-opcode frames, invalid UTF-8 in a close
    // reason...) are reported here after ws has sent the close frame with the matching status
    // code; without a listener they would be thrown and end the process.
    ws.on('error', () => dropSocket(ws));
    ws.on('message', (data, isBinary) => {
      let msg: { id?: unknown; method?: unknown; args?: unknown };
      try {
        if (!isBinary) throw new Error('text frame');
        const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
        // Requests never need a filled array (only answers are sent with them).
        msg = decodeWire(buf, { maxFillBytes: 0 }) as typeof msg;
        if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) throw new Error('not an object');
        if (typeof msg.method !== 'string') throw new Error('method is not a string');
      } catch {
        reply(ws, { id: null, result: { ok: false, error: { code: 'bad-request', message: 'Malformed message.' } } });
        return;
      }
      // Only a plain id is echoed back (the renderer sends numbers).
      const id = typeof msg.id === 'number' || typeof msg.id === 'string' ? msg.id : null;
      dispatch(o.api, msg.method, msg.args).then(
        (result) => reply(ws, { id, result }),
        (e: unknown) =>
          reply(ws, {
            id,
            result: { ok: false, error: { code: 'internal', message: `Something went wrong inside GCScope: ${(e as Error)?.message ?? 'unknown error'}` } },
          }),
      );
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
      for (const key of [...parked.keys()]) dropParked(key);
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
