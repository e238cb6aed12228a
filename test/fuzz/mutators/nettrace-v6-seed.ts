/**
 * A NetTrace V6 seed with real runtime content. No real V6 file exists (test/fixtures/PROVENANCE.md),
 * so a real V5 trace is re-written in the V6 container (perfview NetTraceFormat.md) with the spec
 * builder (test/helpers/nettrace-builder.ts): its metadata as V6 rows, its threads as a Thread
 * block (events refer to them by index), its events in compressed V6 event blocks, each batch's
 * call stacks in a stack block before it and a sequence point after it. The payloads are the real
 * runtime's bytes, so the GC decoders downstream see real GC events.
 */
import { NettraceReader } from '../../../src-main/nettrace/reader.js';
import type { FieldDescriptor, FieldType, TraceEventRecord } from '../../../src-main/nettrace/types.js';
import { Bytes, V6Builder, type BuiltEvent, type V6Field, type V6Metadata } from '../../helpers/nettrace-builder.js';

function typeBytes(t: FieldType): Bytes {
  const b = new Bytes().u8(t.code);
  if (t.fields !== undefined) b.bytes(fieldList(t.fields));
  if (t.element !== undefined) b.bytes(typeBytes(t.element));
  if (t.count !== undefined) b.u16(t.count);
  return b;
}

function fieldList(fields: FieldDescriptor[]): Bytes {
  const b = new Bytes().u16(fields.length);
  for (const f of fields) {
    const fd = new Bytes().utf8v(f.name).bytes(typeBytes(f.type));
    b.u16(fd.length).bytes(fd);
  }
  return b;
}

const BATCH = 400;

/** Re-writes a V4/V5 (or V3) trace's content as NetTrace V6.0. */
export function transcodeToV6(src: Uint8Array): Uint8Array {
  const metadata: V6Metadata[] = [];
  const events: { e: BuiltEvent; stack: Float64Array | undefined }[] = [];
  const threadIndex = new Map<number, number>();
  const seqByThread = new Map<number, number>();
  let syncQpc = 0n;
  let freq = 1;
  let pointerSize = 8;
  let pid = 0;
  let cpus = 1;
  const reader: NettraceReader = new NettraceReader(
    {
      onTrace: (t) => {
        syncQpc = BigInt(t.syncTimeQpc);
        freq = t.qpcFrequency;
        pointerSize = t.pointerSize;
        pid = t.processId;
        cpus = t.numberOfProcessors;
      },
      onMetadata: (m) =>
        metadata.push({
          id: m.id,
          provider: m.provider,
          eventId: m.eventId,
          name: m.eventName,
          fields: m.fields.map((f): V6Field => ({ name: f.name, type: typeBytes(f.type) })),
          version: m.version,
          level: m.level,
          keywords: m.keywords,
          opcode: m.opcode,
        }),
      onEvent: (e: TraceEventRecord) => {
        let idx = threadIndex.get(e.threadId);
        if (idx === undefined) threadIndex.set(e.threadId, (idx = threadIndex.size + 1));
        const seq = (seqByThread.get(idx) ?? 0) + 1;
        seqByThread.set(idx, seq);
        events.push({
          e: {
            metadataId: e.metadata.id,
            threadId: idx,
            captureThreadId: idx,
            sequenceNumber: seq,
            processorNumber: e.processorNumber,
            timestamp: syncQpc + BigInt(Math.round(e.timestamp)),
            payload: e.bytes.slice(e.payloadStart, e.payloadStart + e.payloadSize),
          },
          stack: reader.eventStack(e)?.slice(),
        });
      },
    },
    { stacks: true },
  );
  reader.push(src);
  reader.end();
  const b = new V6Builder(0)
    .trace({ syncQpc, freq, pointerSize, kv: { ProcessId: String(pid), HardwareThreadCount: String(cpus), ExpectedCPUSamplingRate: '1000000' } })
    .metadata(metadata)
    .threads([...threadIndex].map(([tid, index]) => ({ index, tid, pid })));
  const lastSeq = new Map<number, number>();
  for (let i = 0; i < events.length; i += BATCH) {
    const batch = events.slice(i, i + BATCH);
    const stacks: number[][] = [];
    const ids = new Map<string, number>();
    for (const x of batch) {
      if (x.stack === undefined || x.stack.length === 0) continue;
      const key = x.stack.join(',');
      let id = ids.get(key);
      if (id === undefined) {
        stacks.push([...x.stack]);
        ids.set(key, (id = stacks.length));
      }
      x.e.stackId = id;
    }
    if (stacks.length > 0) b.stacks(1, stacks, pointerSize);
    b.events(batch.map((x) => x.e));
    for (const x of batch) lastSeq.set(x.e.captureThreadId, x.e.sequenceNumber);
    b.sequencePoint([...lastSeq], 0, batch[batch.length - 1]!.e.timestamp);
  }
  return b.end();
}
