/**
 * Reverse connect ("diagnostic ports", docs/formats.md §1.8): we listen, the target is started with
 * `DOTNET_DiagnosticPorts=<path>,suspend`, and its runtime connects to us — before any managed
 * code runs — sending a 34-byte advertise block (`ADVR_V1\0`, runtime cookie GUID, u64 PID,
 * u16 reserved) and then waiting for exactly one command. It reconnects for each further command,
 * so every `accept()` yields a fresh connection ready for one request.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IpcError } from './ipc-codec.js';

export const ADVERTISE_SIZE = 34;

export interface Advertise {
  cookie: string;
  pid: number;
}

export function parseAdvertise(b: Uint8Array): Advertise {
  const magic = 'ADVR_V1';
  for (let i = 0; i < 8; i++) {
    if (b[i] !== (i < magic.length ? magic.charCodeAt(i) : 0))
      throw new IpcError('bad-response', 'the connecting peer did not send a .NET diagnostics advertise block');
  }
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const h = (i: number): string => b[8 + i]!.toString(16).padStart(2, '0');
  const cookie = `${h(3)}${h(2)}${h(1)}${h(0)}-${h(5)}${h(4)}-${h(7)}${h(6)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
  return { cookie, pid: Number(dv.getBigUint64(24, true)) };
}

export class ReverseServer {
  private readonly server: net.Server;
  private readonly waiting: ((s: net.Socket) => void)[] = [];
  private readonly ready: net.Socket[] = [];
  private readonly cancels = new Map<(s: net.Socket) => void, () => void>();
  advertise: Advertise | undefined;

  private constructor(readonly path: string) {
    this.server = net.createServer((s) => this.onConnection(s));
  }

  /** Listens on a fresh socket path (or named pipe) only this user can reach. */
  static async listen(): Promise<ReverseServer> {
    const name = `gcscope-${process.pid}-${randomBytes(6).toString('hex')}`;
    const path = process.platform === 'win32' ? `\\\\.\\pipe\\${name}` : join(tmpdir(), `${name}.sock`);
    const rs = new ReverseServer(path);
    await new Promise<void>((resolve, reject) => {
      rs.server.once('error', reject);
      rs.server.listen(path, () => resolve());
    });
    return rs;
  }

  /** The value to give the target in DOTNET_DiagnosticPorts. */
  get portSetting(): string {
    const address = process.platform === 'win32' ? this.path.replace(/^\\\\\.\\pipe\\/, '') : this.path;
    return `${address},connect,suspend`;
  }

  private onConnection(s: net.Socket): void {
    let buf = new Uint8Array(0);
    const timer = setTimeout(() => s.destroy(), 5000);
    const onData = (d: Buffer): void => {
      const n = new Uint8Array(buf.length + d.length);
      n.set(buf);
      n.set(d, buf.length);
      buf = n;
      if (buf.length < ADVERTISE_SIZE) return;
      clearTimeout(timer);
      s.off('data', onData);
      s.pause();
      try {
        this.advertise ??= parseAdvertise(buf);
      } catch {
        s.destroy();
        return;
      }
      if (buf.length > ADVERTISE_SIZE) s.unshift(Buffer.from(buf.subarray(ADVERTISE_SIZE)));
      const w = this.waiting.shift();
      if (w !== undefined) w(s);
      else this.ready.push(s);
    };
    s.on('data', onData);
    s.on('error', () => undefined);
  }

  /** The next runtime connection, ready for one command. */
  accept(timeoutMs = 30000): Promise<net.Socket> {
    const r = this.ready.shift();
    if (r !== undefined) return Promise.resolve(r);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(cb);
        if (i >= 0) this.waiting.splice(i, 1);
        this.cancels.delete(cb);
        reject(new IpcError('timeout', `the launched process did not connect to GCScope within ${timeoutMs} ms`));
      }, timeoutMs);
      const cb = (s: net.Socket): void => {
        clearTimeout(timer);
        this.cancels.delete(cb);
        resolve(s);
      };
      this.cancels.set(cb, () => {
        clearTimeout(timer);
        reject(new IpcError('timeout', 'stopped waiting for the launched process to connect'));
      });
      this.waiting.push(cb);
    });
  }

  close(): void {
    // Pending accepts end now: their timers would otherwise keep the process alive.
    for (const cb of this.waiting.splice(0)) this.cancels.get(cb)?.();
    this.cancels.clear();
    for (const s of this.ready) s.destroy();
    this.server.close();
    if (process.platform !== 'win32') rmSync(this.path, { force: true });
  }
}
