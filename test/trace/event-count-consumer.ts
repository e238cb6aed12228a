/**
 * A made-up event consumer, to show that a new kind of data is one consumer module plus one
 * registration line (pluggable.test.ts): it counts the events of every analysis by name and
 * notes the trace header and the end, into `seen`.
 */
import type { TraceConsumerFactory } from '../../src-main/recording/trace-consumers.js';

export const seen = { traces: [] as string[], events: 0, byName: new Map<string, number>(), flushes: 0, finished: 0, endState: '' };

export const countEvents: TraceConsumerFactory = () => ({
  onTrace: (t) => void seen.traces.push(`${t.format} V${t.formatVersion}`),
  onEvent: (e) => {
    seen.events++;
    const k = `${e.metadata.provider}/${e.metadata.eventId}`;
    seen.byName.set(k, (seen.byName.get(k) ?? 0) + 1);
  },
  flush: () => void seen.flushes++,
  finish: (ctx) => {
    seen.finished++;
    seen.endState = ctx.reader.state;
  },
});
