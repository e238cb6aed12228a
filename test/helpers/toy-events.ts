/**
 * What the two made-up trace formats of the tests share (test/trace/toy-format.ts, one process;
 * test/helpers/machine-toy-format.ts, machine-wide): the runtime GC events they know by their
 * TraceEvent name, each with its event id, version and payload field widths in the CLR's layout
 * order; the payload bytes from a line's integers; the event's metadata, made once per name; and
 * the split of pushed chunks into lines.
 */
import { RUNTIME } from '../../src-main/clr/gc-events.js';
import type { EventMetadata } from '../../src-main/trace/model.js';

export interface ToyEventLayout {
  id: number;
  version: number;
  /** Field widths in bytes (4 or 8), in payload order. */
  fields: number[];
}

/** The runtime events both toy formats know. */
export const TOY_EVENTS: Readonly<Record<string, ToyEventLayout>> = {
  SuspendEEBegin: { id: 9, version: 1, fields: [4, 4] },
  SuspendEEEnd: { id: 8, version: 1, fields: [] },
  GCStart: { id: 1, version: 1, fields: [4, 4, 4, 4] },
  GCEnd: { id: 2, version: 1, fields: [4, 4] },
  HeapStats: { id: 4, version: 1, fields: [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4, 4, 4] },
  RestartEEBegin: { id: 7, version: 1, fields: [] },
  RestartEEEnd: { id: 3, version: 1, fields: [] },
};

/** A payload of little-endian integers of these widths, from a line's decimal fields (missing ones are 0). */
export function toyPayload(widths: readonly number[], values: readonly string[]): Uint8Array {
  const bytes = new Uint8Array(widths.reduce((a, b) => a + b, 0));
  const view = new DataView(bytes.buffer);
  let at = 0;
  widths.forEach((width, i) => {
    const v = Number(values[i] ?? 0);
    if (width === 8) view.setBigUint64(at, BigInt(v), true);
    else view.setUint32(at, v, true);
    at += width;
  });
  return bytes;
}

/** Each event name's metadata, made on first use and announced once through `onMetadata`. */
export class ToyMetadata {
  private readonly byName = new Map<string, EventMetadata>();

  constructor(private readonly onMetadata: ((md: EventMetadata) => void) | undefined) {}

  of(name: string, layout: ToyEventLayout): EventMetadata {
    let md = this.byName.get(name);
    if (md === undefined) {
      md = {
        id: this.byName.size + 1,
        provider: RUNTIME,
        eventId: layout.id,
        eventName: name,
        keywords: 1n,
        version: layout.version,
        level: 4,
        opcode: undefined,
        fields: [],
        hasV5Tags: false,
      };
      this.byName.set(name, md);
      this.onMetadata?.(md);
    }
    return md;
  }
}

/** Splits pushed chunks into lines; `offset` is the byte offset of the line being handled. */
export class ToyLines {
  offset = 0;
  private text = '';
  private readonly decoder = new TextDecoder();

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Uint8Array): void {
    this.text += this.decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = this.text.indexOf('\n')) >= 0) {
      this.onLine(this.text.slice(0, nl));
      this.offset += nl + 1;
      this.text = this.text.slice(nl + 1);
    }
  }

  /** The last line, if the text does not end with a newline. */
  end(): void {
    if (this.text.trim() !== '') this.onLine(this.text);
    this.text = '';
  }
}

/** A format's sniff for a text magic: 'more' while the first bytes are a prefix of it. */
export function sniffMagic(magic: string, first: Uint8Array): 'yes' | 'no' | 'more' {
  const n = Math.min(first.length, magic.length);
  for (let i = 0; i < n; i++) if (first[i] !== magic.charCodeAt(i)) return 'no';
  return n === magic.length ? 'yes' : 'more';
}
