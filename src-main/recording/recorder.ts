/**
 * What the service (and `gcscope record` / `watch`) drives of a live session, whatever records
 * it: `LiveRecorder` (a recording, with its raw trace) and `watch/watcher.ts`'s `Watcher` (the
 * flight recorder, without one) both implement it, so the service holds one kind of thing and
 * one adapter (service/recording-host.ts) serves both, in a worker or in its own thread.
 */
export interface Recorder {
  /** The session being written (0 until started; a watch that reattaches moves to a new one). */
  readonly sessionId: number;
  /** The raw `.nettrace` being teed ('' when there is none: a watch keeps a ring instead). */
  readonly tracePath: string;
  /** What the target's runtime could not do that the profile asks for (known once started). */
  readonly downgrades: string[];
  /** Attaches and starts streaming; resolves once events flow. */
  start(): Promise<void>;
  /** Asks the target to stop and drains the stream; resolves when the session is stored. */
  stop(): Promise<unknown>;
  /** Closes the stream without waiting for the target; resolves when the session is stored. */
  cut(reason: string): Promise<unknown>;
  /** Resolves when the recording has ended and is stored (rejects if it could not be finished). */
  done(): Promise<unknown>;
}
