/**
 * The event consumers every trace analysis runs beside its GC analysis (trace/consumer.ts): a new
 * kind of data is one consumer module and one line here (or one `registerTraceConsumer` call).
 * Each factory is asked once per analysis and may decline (undefined), e.g. when the analysis
 * reads no stacks and the consumer needs them.
 */
import { Registry } from '../common/registry.js';
import { RequestSpanCollector } from '../requests/spans.js';
import type { AnalysisContext, TraceConsumer } from '../trace/consumer.js';

/** Makes a consumer for one analysis, or declines it. */
export type TraceConsumerFactory = (ctx: AnalysisContext) => TraceConsumer | undefined;

const CONSUMERS = new Registry<TraceConsumerFactory>();

/** The consumer factories registered, in the order their consumers see each event. */
export function traceConsumers(): readonly TraceConsumerFactory[] {
  return CONSUMERS.list();
}

/** Adds a consumer factory (once). Analyses made after this run its consumer. */
export function registerTraceConsumer(f: TraceConsumerFactory): void {
  CONSUMERS.register(f);
}

/** Removes a consumer factory added with registerTraceConsumer (tests). */
export function unregisterTraceConsumer(f: TraceConsumerFactory): void {
  CONSUMERS.unregister(f);
}

// Request spans and GC pause intervals (issue 42: which requests the GC delayed).
registerTraceConsumer(() => new RequestSpanCollector());
