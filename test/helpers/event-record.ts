/**
 * One hand-built event, as the reader would deliver it, for tests that feed the CLR decoders and
 * the GC analysis payloads no fixture trace has (test/helpers/nettrace-builder.ts builds them).
 * Defaults: the runtime provider, version 0, metadata id = event id, time 0, thread 7, payload at
 * stream offset 0.
 */
import type { EventMetadata, TraceEventRecord } from '../../src-main/trace/model.js';
import { Bytes } from './nettrace-builder.js';

export const RUNTIME_PROVIDER = 'Microsoft-Windows-DotNETRuntime';

export interface EventRecordOptions {
  provider?: string;
  version?: number;
  /** The metadata record's id (default: the event id). */
  metadataId?: number;
  timestamp?: number;
  threadId?: number;
  /** Default: the thread id. */
  captureThreadId?: number;
  sequenceNumber?: number;
  /** Absolute offset of the payload in the stream (what a decode error reports). */
  payloadOffset?: number;
}

export function eventRecord(eventId: number, payload: Bytes | Uint8Array, o: EventRecordOptions = {}): TraceEventRecord {
  const bytes = payload instanceof Bytes ? payload.toUint8Array() : payload;
  const metadata: EventMetadata = {
    id: o.metadataId ?? eventId,
    provider: o.provider ?? RUNTIME_PROVIDER,
    eventId,
    eventName: '',
    keywords: 1n,
    version: o.version ?? 0,
    level: 4,
    opcode: undefined,
    fields: [],
    hasV5Tags: false,
  };
  const threadId = o.threadId ?? 7;
  return {
    metadata,
    timestamp: o.timestamp ?? 0,
    threadId,
    captureThreadId: o.captureThreadId ?? threadId,
    processorNumber: 0,
    sequenceNumber: o.sequenceNumber ?? 1,
    stackId: 0,
    processId: 1,
    activityId: undefined,
    bytes,
    payloadStart: 0,
    payloadSize: bytes.length,
    payloadOffset: o.payloadOffset ?? 0,
  };
}
