/**
 * Raw HTTP and WebSocket over node:net, for sending what no well-behaved client library would:
 * malformed request targets, unmasked frames, reserved opcodes, oversize lengths.
 */
import net from 'node:net';

export interface RawResponse {
  status: number;
  head: string;
  body: string;
}

/** Sends `request` verbatim and reads until the server closes (or `timeoutMs`). */
export function rawHttp(port: number, request: string, timeoutMs = 5000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let buf = '';
    const timer = setTimeout(() => {
      s.destroy();
      done();
    }, timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      const end = buf.indexOf('\r\n\r\n');
      const head = end >= 0 ? buf.slice(0, end) : buf;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      resolve({ status: m === null ? 0 : Number(m[1]), head, body: end >= 0 ? buf.slice(end + 4) : '' });
    };
    s.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      // One response is enough: keep-alive servers would otherwise keep the socket open.
      const end = buf.indexOf('\r\n\r\n');
      if (end >= 0) {
        const len = /content-length: (\d+)/i.exec(buf.slice(0, end));
        if (len !== null && buf.length >= end + 4 + Number(len[1])) s.destroy();
      }
    });
    s.on('close', done);
    s.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    s.write(request);
  });
}

export interface WsFrame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

/** Encodes one client frame; `mask: false` and `rsv`/`opcode` let tests break the protocol. */
export function wsFrame(opcode: number, payload: Buffer, o: { mask?: boolean; fin?: boolean; rsv?: number; claimedLength?: number } = {}): Buffer {
  const mask = o.mask ?? true;
  const len = o.claimedLength ?? payload.length;
  const head: number[] = [((o.fin ?? true) ? 0x80 : 0) | ((o.rsv ?? 0) << 4) | opcode];
  const m = mask ? 0x80 : 0;
  if (len < 126) head.push(m | len);
  else if (len < 65536) head.push(m | 126, len >> 8, len & 0xff);
  else {
    head.push(m | 127);
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(len));
    head.push(...b);
  }
  const key = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const body = Buffer.from(payload);
  if (mask) for (let i = 0; i < body.length; i++) body[i]! ^= key[i & 3]!;
  return Buffer.concat([Buffer.from(head), mask ? key : Buffer.alloc(0), body]);
}

/** A WebSocket connection made by hand: the handshake, then raw frames both ways. */
export class RawWebSocket {
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  closed = false;
  private constructor(private readonly s: net.Socket) {
    s.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake();
    });
    s.on('close', () => {
      this.closed = true;
      this.wake();
    });
    s.on('error', () => undefined);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Opens `/ws` with the given token and Origin; resolves with the handshake status line. */
  static async open(port: number, path: string, origin: string): Promise<{ ws: RawWebSocket; status: number }> {
    const s = net.connect(port, '127.0.0.1');
    await new Promise<void>((r, j) => {
      s.once('connect', () => r());
      s.once('error', j);
    });
    const ws = new RawWebSocket(s);
    s.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: ${origin}\r\n\r\n`,
    );
    for (;;) {
      const end = ws.buf.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = ws.buf.subarray(0, end).toString('latin1');
        ws.buf = ws.buf.subarray(end + 4);
        return { ws, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0) };
      }
      if (ws.closed) return { ws, status: 0 };
      await ws.wait(5000);
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no answer from the server')), ms);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  write(b: Buffer): void {
    this.s.write(b);
  }

  /** The next server frame, or null when the connection closed first. */
  async next(ms = 5000): Promise<WsFrame | null> {
    for (;;) {
      const b = this.buf;
      if (b.length >= 2) {
        let len = b[1]! & 0x7f;
        let off = 2;
        if (len === 126 && b.length >= 4) {
          len = b.readUInt16BE(2);
          off = 4;
        } else if (len === 127 && b.length >= 10) {
          len = Number(b.readBigUInt64BE(2));
          off = 10;
        }
        if ((len < 126 || off > 2) && b.length >= off + len) {
          this.buf = b.subarray(off + len);
          return { fin: (b[0]! & 0x80) !== 0, opcode: b[0]! & 0x0f, payload: Buffer.from(b.subarray(off, off + len)) };
        }
      }
      if (this.closed) return null;
      await this.wait(ms);
    }
  }

  end(): void {
    this.s.destroy();
  }
}
