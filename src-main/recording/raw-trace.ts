/**
 * Finalizing a raw trace a recording teed to disk. When the stream stopped early (the target was
 * killed, GCScope crashed), the file ends mid-block without the end-of-stream marker, and PerfView
 * / TraceEvent refuse it. For NetTrace V4/V5 and NetPerf we cut the file back to the end of its
 * last complete block and append the NullReference tag (0x01), so every complete block stays
 * readable by any tool.
 */
import { open, truncate } from 'node:fs/promises';
import { BlockKind, NettraceReader } from '../nettrace/reader.js';
import { pumpTraceFile } from './trace-file.js';

export interface FinalizeResult {
  /** The file already ended properly. */
  wasComplete: boolean;
  /** Bytes kept (the end of the last complete block). */
  keptBytes: number;
  /** Bytes removed from the end. */
  droppedBytes: number;
}

export async function finalizeRawTrace(path: string): Promise<FinalizeResult> {
  let lastEnd = 0;
  let fsContainer = true;
  const reader = new NettraceReader(
    {
      onTrace: (t) => {
        fsContainer = t.formatVersion < 6;
      },
      onBlock: (kind, _start, end) => {
        if (kind !== BlockKind.EndOfStream) lastEnd = end;
      },
    },
    { sort: false },
  );
  let size = 0;
  try {
    await pumpTraceFile(path, reader, { onProgress: (p) => (size = p.fileBytes) });
  } catch {
    // A damaged tail: keep what precedes it.
  }
  if (reader.state === 'complete') return { wasComplete: true, keptBytes: size, droppedBytes: 0 };
  if (!fsContainer || lastEnd === 0) return { wasComplete: false, keptBytes: size, droppedBytes: 0 };
  await truncate(path, lastEnd);
  const fh = await open(path, 'a');
  try {
    await fh.write(Uint8Array.of(0x01));
  } finally {
    await fh.close();
  }
  return { wasComplete: false, keptBytes: lastEnd, droppedBytes: size - lastEnd };
}
