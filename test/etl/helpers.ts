/**
 * Shared by the ETL tests: the fixtures' bytes (the one .etl of a PerfView zip), a full read
 * through EtlReader, and TraceEvent's baselines parsed (test/fixtures/baselines/*.baseline.txt:
 * `EVENT <ms>: <name> PID=…; TID=…; PName=…; ProceNum=…; DataLen=…; Field=value; …` for the
 * first five events of each name, then `COUNT <name>:<n>`).
 */
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { eventDisplayName } from '../../src-main/clr/event-names.js';
import { EtlReader } from '../../src-main/etl/reader.js';
import type { TraceEventRecord, TraceInfo } from '../../src-main/trace/model.js';
import type { TraceReaderOptions } from '../../src-main/trace/reader.js';
import { FIXTURES } from '../helpers/fixtures.js';

export const ETL_FILES = [
  'gcevents.etl.zip',
  'gcrundownevents.etl.zip',
  'net.4.5.2.x64.etl.zip',
  'primitive-types.etl.zip',
  'SelfDescribingSingleEvent.etl',
] as const;

const cache = new Map<string, Uint8Array>();

/** The .etl bytes of a fixture (the zip's one .etl entry). */
export function etlBytes(name: string): Uint8Array {
  let b = cache.get(name);
  if (b === undefined) {
    const raw = new Uint8Array(readFileSync(`${FIXTURES}etl/${name}`));
    if (name.endsWith('.zip')) {
      const etl = Object.entries(unzipSync(raw)).filter(([n]) => n.endsWith('.etl'));
      if (etl.length !== 1) throw new Error(`${name}: expected one .etl in the zip`);
      b = etl[0]![1];
    } else b = raw;
    cache.set(name, b);
  }
  return b;
}

/** What a test keeps of an event (the record is reused by nothing here, but keep it small). */
export interface SeenEvent {
  name: string;
  ms: number;
  pid: number;
  tid: number;
  cpu: number;
  dataLen: number;
  version: number;
  record: TraceEventRecord;
  stack: Float64Array | undefined;
}

export interface Read {
  reader: EtlReader;
  trace: TraceInfo | undefined;
  events: SeenEvent[];
}

/** Reads the bytes in chunks (one chunk by default) and ends the stream; never throws a non-decode error. */
export function readEtl(bytes: Uint8Array, options: TraceReaderOptions = {}, chunks: number[] = []): Read {
  let trace: TraceInfo | undefined;
  const events: SeenEvent[] = [];
  const reader = new EtlReader(
    {
      onTrace: (t) => (trace = t),
      onEvent: (e) => {
        events.push({
          name: eventDisplayName(e.metadata),
          ms: (e.timestamp * 1000) / trace!.qpcFrequency,
          pid: e.processId,
          tid: e.threadId,
          cpu: e.processorNumber,
          dataLen: e.payloadSize,
          version: e.metadata.version,
          record: e,
          stack: reader.eventStack(e),
        });
      },
    },
    options,
  );
  let pos = 0;
  for (const n of chunks) {
    reader.push(bytes.subarray(pos, pos + n));
    pos += n;
  }
  if (pos < bytes.length) reader.push(bytes.subarray(pos));
  reader.end();
  return { reader, trace, events };
}

export interface BaselineEvent {
  name: string;
  ms: number;
  pid: number;
  tid: number;
  cpu: number;
  dataLen: number;
  fields: Record<string, string>;
}

export interface Baseline {
  events: BaselineEvent[];
  counts: Map<string, number>;
}

const num = (s: string | undefined): number => (s === undefined ? Number.NaN : Number(s.replace(/,/g, '')));

export function readBaseline(name: string): Baseline {
  const text = readFileSync(`${FIXTURES}baselines/${name}.baseline.txt`, 'utf8').replace(/^\uFEFF/, '');
  const events: BaselineEvent[] = [];
  const counts = new Map<string, number>();
  for (const line of text.split(/\r?\n/)) {
    const c = /^COUNT (.*):(\d+)$/.exec(line);
    if (c !== null) {
      counts.set(c[1]!, Number(c[2]));
      continue;
    }
    const m = /^EVENT ([\d,.]+): (\S+) (.*)$/.exec(line);
    if (m === null) continue;
    const fields: Record<string, string> = {};
    for (const part of m[3]!.split('; ')) {
      const eq = part.indexOf('=');
      if (eq > 0) fields[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
    events.push({
      name: m[2]!,
      ms: num(m[1]!),
      pid: num(fields['PID']!),
      tid: num(fields['TID']!),
      cpu: num(fields['ProceNum']!),
      dataLen: num(fields['DataLen']!),
      fields,
    });
  }
  return { events, counts };
}

export function baselineName(file: string): string {
  return file.replace(/\.zip$/, '').replace(/\.etl$/, '');
}
