/**
 * A watch (the flight recorder, watch/watcher.ts) as the service holds a recording: the same
 * start / stop / cut / done, so Stop, the watchdog and live batches work for it unchanged. Like a
 * recording it runs in the record worker (record-worker.ts) when the bundled script is there; this
 * is the in-thread form (tests from source). Reattaching is left to `gcscope watch`: a new process
 * is a new session, which the app opens from the process list.
 */
import type { CaptureInfo, WatchSettings } from '../shared/capture.js';
import type { LiveBatch } from '../shared/gc-series.js';
import type { Database } from '../store/db.js';
import { Watcher } from '../watch/watcher.js';
import { RecordingStartError, type Recording } from './recording-host.js';

export interface WatchHostOptions {
  db: Database;
  pid: number;
  settings: WatchSettings;
  outDir: string;
  onBatch: (b: LiveBatch) => void;
  onCapture: (c: CaptureInfo) => void;
}

export class WatchRecording implements Recording {
  private readonly watcher: Watcher;
  constructor(o: WatchHostOptions) {
    this.watcher = new Watcher(o.db, { ...o.settings, reattach: false, pid: o.pid, outDir: o.outDir, onBatch: o.onBatch, onCapture: o.onCapture });
  }
  get sessionId(): number {
    return this.watcher.sessionId;
  }
  get tracePath(): string {
    return '';
  }
  get downgrades(): string[] {
    return this.watcher.downgrades;
  }
  async start(): Promise<void> {
    try {
      await this.watcher.start();
    } catch (e) {
      throw new RecordingStartError((e as { code?: string }).code ?? null, (e as Error).message);
    }
  }
  async stop(): Promise<void> {
    await this.watcher.stop();
  }
  async cut(reason: string): Promise<void> {
    await this.watcher.cut(reason);
  }
  async done(): Promise<void> {
    await this.watcher.done();
  }
  terminate(): void {
    // Nothing runs apart from this thread.
  }
}
