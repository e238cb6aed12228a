/**
 * Transport for the diagnostics IPC: a Unix domain socket (Linux/macOS) or a named pipe
 * (Windows), both through `net.connect({ path })`. One command per connection: `request` sends a
 * message and reads one response; `openStream` sends CollectTracing and hands back the socket,
 * which then carries the nettrace stream (docs/formats.md §1.1, §1.6).
 */
import net from 'node:net';
import { IpcError, IpcResponseFramer, type IpcMessage } from './ipc-codec.js';
import { rerunAsRoot } from './rerun.js';

export interface Endpoint {
  /** Socket path or `\\.\pipe\…` name. */
  path: string;
  /** The process's PID as GCScope sees it (the host PID of a process in a container). */
  pid: number;
  /** The PID inside the process's own PID namespace, which names its socket, when that is not GCScope's namespace. */
  innerPid?: number;
}

export type DiagnosticsErrorCode =
  'no-such-process' | 'not-dotnet' | 'diagnostics-disabled' | 'permission-denied' | 'not-listening' | 'runtime-too-old' | 'connect-failed';

/** Attaching failed in a way the user can act on; the message says how. */
export class DiagnosticsError extends Error {
  override readonly name = 'DiagnosticsError';
  constructor(
    readonly code: DiagnosticsErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_TIMEOUT = 5000;

export function connect(ep: Endpoint, timeoutMs = DEFAULT_TIMEOUT): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ path: ep.path });
    const timer = setTimeout(() => {
      s.destroy();
      reject(new IpcError('timeout', `no answer from the diagnostics endpoint of process ${ep.pid} within ${timeoutMs} ms`));
    }, timeoutMs);
    s.once('connect', () => {
      clearTimeout(timer);
      resolve(s);
    });
    s.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      s.destroy();
      if (e.code === 'EACCES' || e.code === 'EPERM') {
        reject(
          new DiagnosticsError(
            'permission-denied',
            `permission denied connecting to process ${ep.pid}'s diagnostics socket (${ep.path}): it belongs to another user; only that user or root can attach — run: ${rerunAsRoot()}`,
          ),
        );
      } else if (e.code === 'ECONNREFUSED' || e.code === 'ENOENT') {
        reject(new DiagnosticsError('not-listening', `process ${ep.pid} is not listening for diagnostics (it may have exited; ${ep.path} is stale)`));
      } else reject(new DiagnosticsError('connect-failed', `cannot connect to process ${ep.pid} (${ep.path}): ${e.message}`));
    });
  });
}

/**
 * Sends `msg` on `socket` and resolves with the first complete response message plus whatever
 * stream bytes followed it in the same chunk. Times out, and fails typed on a close or garbage.
 */
export function exchange(socket: net.Socket, msg: Uint8Array, what: string, timeoutMs = DEFAULT_TIMEOUT): Promise<{ message: IpcMessage; rest: Uint8Array }> {
  return new Promise((resolve, reject) => {
    const framer = new IpcResponseFramer();
    let done = false;
    const finish = (err: Error | undefined, v?: { message: IpcMessage; rest: Uint8Array }): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
      if (err !== undefined) {
        socket.destroy();
        reject(err);
      } else resolve(v!);
    };
    const onData = (d: Buffer): void => {
      try {
        framer.push(d);
        const r = framer.take();
        if (r !== undefined) {
          // Hold further data until the caller takes over the socket.
          socket.pause();
          finish(undefined, r);
        }
      } catch (e) {
        finish(e as Error);
      }
    };
    const onEnd = (): void => finish(new IpcError('closed', `the runtime closed the connection before answering ${what}`));
    const onError = (e: Error): void => finish(new IpcError('closed', `connection error while waiting for the answer to ${what}: ${e.message}`));
    const timer = setTimeout(() => finish(new IpcError('timeout', `no answer to ${what} within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onError);
    // A reverse-connect socket arrives paused (its advertise block was read first).
    socket.resume();
    socket.write(msg);
  });
}

/** One request on a fresh connection; the connection is closed afterwards. */
export async function request(ep: Endpoint, msg: Uint8Array, what: string, timeoutMs = DEFAULT_TIMEOUT): Promise<IpcMessage> {
  const s = await connect(ep, timeoutMs);
  try {
    return (await exchange(s, msg, what, timeoutMs)).message;
  } finally {
    s.destroy();
  }
}
