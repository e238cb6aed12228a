/**
 * Request spans and GC pause intervals (issue 42): what the store keeps per session, the
 * requests analysis (src-main/requests/) reads and the renderer's Requests lane draws. Types only.
 */

/** One request: from its Start to its Stop, ms on the trace's clock (as every GC time). */
export interface RequestSpan {
  startMSec: number;
  durationMSec: number;
  /** Provider/stem ('Microsoft-AspNetCore-Server-Kestrel/Request'), an Activity source's name, or an explicit source's label. */
  group: string;
  /** What the start's payload says the request was ('GET /alloc'), or ''. */
  name: string;
}

/** One GC pause: suspension start to restart end, ms. */
export interface PauseInterval {
  startMSec: number;
  endMSec: number;
  gcNumber: number;
  /** The GC's generation and type (0 non-concurrent, 1 background, 2 foreground) as its GCStart said; -1 unknown. */
  generation: number;
  type: number;
}
