/** A flight-recorder capture (gcscope watch, Watch mode) as every consumer sees it (types only). */

export type CaptureStatus = 'writing' | 'complete' | 'failed';

export interface CaptureInfo {
  id: number;
  /** The watch session the capture belongs to. */
  sessionId: number;
  createdAt: string;
  /** The trigger as written (e.g. `pause>200ms`), and what it measured. */
  trigger: string;
  detail: string;
  gcNumber: number;
  /** The triggering GC's pause start and end (ms since the trace's sync time, the watch session's axis). */
  gcStartMSec: number;
  gcEndMSec: number;
  /** The span of events the file holds (ms; null until written). */
  fromMSec: number | null;
  toMSec: number | null;
  path: string;
  bytes: number | null;
  /** The verbose profile's trace of the seconds after the trigger, when asked for. */
  verbosePath: string | null;
  /** The capture imported as a session of its own (null until imported, or once deleted). */
  captureSessionId: number | null;
  status: CaptureStatus;
}

/** How a watch runs (gcscope watch's flags; the app's Watch mode). */
export interface WatchSettings {
  /** Trigger texts (watch/triggers.ts syntax, e.g. `pause>200ms`, `gen=2,kind=blocking`); empty: the default trigger. */
  triggers: string[];
  /** Memory for the raw events kept before a trigger (MB). */
  ringMB: number;
  /** Seconds of events kept before a triggering GC, and recorded after it. */
  beforeSec: number;
  afterSec: number;
  /** Seconds after a capture during which triggers are ignored, and the most captures per hour. */
  cooldownSec: number;
  maxPerHour: number;
  /** Record the post-trigger seconds with the gc-verbose profile too (a second file). */
  verboseAfter: boolean;
  /** When the target exits, wait for a process with the same command line and watch it (CLI only). */
  reattach: boolean;
}

export const DEFAULT_WATCH_SETTINGS: WatchSettings = {
  triggers: [],
  ringMB: 64,
  beforeSec: 30,
  afterSec: 5,
  cooldownSec: 60,
  maxPerHour: 5,
  verboseAfter: false,
  reattach: false,
};
