/**
 * One EventPipe session with a .NET process, end to end on the diagnostics side (docs/formats.md
 * §1.5–1.8): reach the target (its listening endpoint, or — launch mode — start it suspended
 * behind a reverse-connect port so its very first GC is caught), ask who it is, start the session
 * (newest CollectTracing the runtime accepts), hand the stream's bytes on as they arrive, resume a
 * launched runtime, and stop: StopTracing on a second connection, then drain until the runtime
 * closes the stream (so it ends with its rundown and end-of-stream tag), or cut it after a
 * deadline. What the bytes mean is not its business (recording/live-recorder.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type net from 'node:net';
import { endpointConnector, getProcessInfo, resumeRuntime, startSession, stopSession, type Connector, type StartedSession } from './client.js';
import type { ProcessInfo, SessionRequest } from './commands.js';
import { findEndpoint } from './discovery.js';
import { ReverseServer } from './reverse-server.js';
import { DiagnosticsError } from './transport.js';

export type SessionTarget = { pid: number } | { launch: { command: string; args: string[]; env?: Record<string, string>; cwd?: string } };

export class EventPipeSession {
  private started: StartedSession | undefined;
  private socket: net.Socket | undefined;
  private stopRequested = false;
  /** Resolves when the runtime (or we) closed the stream. */
  ended: Promise<void> = Promise.resolve();

  private constructor(
    private readonly connector: Connector,
    readonly processInfo: ProcessInfo,
    /** The launched target (launch mode). */
    readonly child: ChildProcess | undefined,
    private readonly childExit: Promise<number | null>,
    private readonly reverse: ReverseServer | undefined,
  ) {}

  /** Reaches the target (attach, or launch suspended) and reads its ProcessInfo. */
  static async open(target: SessionTarget, onTargetOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): Promise<EventPipeSession> {
    if ('pid' in target) {
      const connector = endpointConnector(findEndpoint(target.pid));
      const info = await getProcessInfo(connector);
      // A runtime in a container answers with its PID inside its namespace (1, often): sessions,
      // the app's "being recorded" mark and --reattach all go by the PID GCScope sees and attached
      // to, so that one is the process id from here on; the runtime's own is kept beside it.
      const ids = info.processId !== target.pid ? { processId: target.pid, innerProcessId: info.processId } : {};
      return new EventPipeSession(connector, { ...info, ...ids }, undefined, Promise.resolve(null), undefined);
    }
    const t = target.launch;
    const rs = await ReverseServer.listen();
    const child = spawn(t.command, t.args, {
      cwd: t.cwd,
      env: { ...process.env, ...t.env, DOTNET_DiagnosticPorts: rs.portSetting },
      stdio: ['inherit', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => onTargetOutput?.('stdout', d));
    child.stderr?.on('data', (d: Buffer) => onTargetOutput?.('stderr', d));
    // A failed spawn emits 'error' and no 'exit': count it as the exit too.
    const childExit = new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', () => resolve(null));
    });
    const spawnError = new Promise<never>((_, reject) =>
      child.once('error', (e: NodeJS.ErrnoException) =>
        reject(new DiagnosticsError('no-such-process', `cannot start ${t.command}: ${e.code === 'ENOENT' ? 'no such program' : e.message}`)),
      ),
    );
    // Until the runtime connects, a failed spawn or an early exit must not leave us waiting.
    const early = childExit.then((code) => {
      throw new DiagnosticsError('not-dotnet', `${t.command} exited (code ${code}) before its runtime connected to GCScope: is it a .NET 5+ app?`);
    });
    let first: Awaited<ReturnType<ReverseServer['accept']>>;
    try {
      first = await Promise.race([rs.accept(60000), spawnError, early]);
    } catch (e) {
      // Nothing may keep the process alive after a failed launch: the listening socket and the
      // pending accept go, and a target still running (it never connected) is stopped.
      rs.close();
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) child.kill('SIGKILL');
      spawnError.catch(() => undefined);
      early.catch(() => undefined);
      throw e;
    }
    early.catch(() => undefined);
    // The runtime's first connection carries the first command; later ones are accepted as they come.
    let used = false;
    const connector: Connector = () => {
      if (!used) {
        used = true;
        return Promise.resolve(first);
      }
      return rs.accept();
    };
    return new EventPipeSession(connector, await getProcessInfo(connector), child, childExit, rs);
  }

  /** The command line a launched target was started with (quoted where needed). */
  static commandLineOf(target: SessionTarget): string | undefined {
    return 'launch' in target ? [target.launch.command, ...target.launch.args].map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ') : undefined;
  }

  /**
   * Starts the session; `onData` gets every byte of the stream, in order. Resumes a launched
   * runtime. `startTimeoutMs`: how long the runtime may take to answer (a heap snapshot's session
   * is answered only after its induced GC has walked the heap: seconds on a big heap).
   */
  async start(request: SessionRequest, onData: (chunk: Buffer) => void, startTimeoutMs?: number): Promise<void> {
    const s = await startSession(this.connector, request, this.processInfo.clrProductVersion, startTimeoutMs);
    this.started = s;
    this.socket = s.socket;
    this.ended = new Promise((resolve) => {
      s.socket.once('close', () => resolve());
    });
    s.socket.on('data', onData);
    s.socket.on('error', () => undefined);
    if (s.initial.length > 0) onData(Buffer.from(s.initial));
    s.socket.resume();
    if (this.child !== undefined) await resumeRuntime(this.connector);
  }

  /** What an older runtime could not do (e.g. turn stack walks off). */
  get downgrades(): string[] {
    return this.started?.downgrades ?? [];
  }

  get isStarted(): boolean {
    return this.started !== undefined;
  }

  /**
   * Asks the runtime to stop (once) and waits up to `drainMs` for it to close the stream after
   * its rundown; then cuts the stream. Resolves when the request is sent or failed.
   */
  stop(drainMs: number): void {
    if (this.stopRequested || this.started === undefined) return;
    this.stopRequested = true;
    const started = this.started;
    void (async () => {
      try {
        await stopSession(this.connector, started.sessionId, 5000);
      } catch {
        // The target may be gone already; the stream end settles it.
      }
      // Deadlines are unref'd: once everything else is done they must not keep the process
      // alive (`gcscope record` would otherwise linger up to the whole deadline before exiting).
      const drained = await Promise.race([this.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), drainMs).unref())]);
      if (!drained) this.socket?.destroy();
    })();
  }

  /** Closes the stream from our side without waiting for the runtime. */
  cut(): void {
    this.socket?.destroy();
  }

  /** A launched target's exit code, if it exits within `waitMs` (null otherwise, or when attached). */
  async exitCode(waitMs: number): Promise<number | null> {
    if (this.child === undefined) return null;
    return Promise.race([this.childExit, new Promise<null>((r) => setTimeout(() => r(null), waitMs).unref())]);
  }

  close(): void {
    this.reverse?.close();
  }
}
