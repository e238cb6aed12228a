/**
 * The .NET diagnostics IPC message codec (docs/formats.md §1.2–1.5, dotnet/diagnostics
 * ipc-protocol.md, checked against the client serializers and the runtime's ds-protocol.c).
 *
 * Header, 20 bytes: magic "DOTNET_IPC_V1\0" (14), u16 size = header + payload (so a message is at
 * most 65 535 bytes), u8 command_set, u8 command_id, u16 reserved = 0. Payload strings are u32
 * character count *including* the terminating NUL, then UTF-16LE; arrays are u32 count + items.
 * Responses: command_set 0xFF, id 0x00 OK (command-specific payload) or 0xFF Error (u32 HRESULT).
 *
 * Pure: no sockets here; the transport feeds bytes to IpcResponseFramer.
 */

export const IPC_MAGIC = 'DOTNET_IPC_V1';
export const HEADER_SIZE = 20;
export const MAX_MESSAGE_SIZE = 0xffff;

export const enum CommandSet {
  Dump = 0x01,
  EventPipe = 0x02,
  Profiler = 0x03,
  Process = 0x04,
  Server = 0xff,
}

export const EventPipeCommand = {
  StopTracing: 0x01,
  CollectTracing: 0x02,
  CollectTracing2: 0x03,
  CollectTracing3: 0x04,
  CollectTracing4: 0x05,
  CollectTracing5: 0x06,
  /** .NET 11+: CollectTracing5 plus a session buffering mode (non-lossy 'Block'). */
  CollectTracing6: 0x07,
} as const;

export const ProcessCommand = {
  ProcessInfo: 0x00,
  ResumeRuntime: 0x01,
  ProcessEnvironment: 0x02,
  ProcessInfo2: 0x04,
  ProcessInfo3: 0x08,
} as const;

export const ServerResponse = { OK: 0x00, Error: 0xff } as const;

/** HRESULTs the diagnostics server answers with. */
export const HRESULTS: Record<number, string> = {
  0x80131384: 'BAD_ENCODING',
  0x80131385: 'UNKNOWN_COMMAND',
  0x80131386: 'UNKNOWN_MAGIC',
  0x80131515: 'NOT_SUPPORTED',
  0x80004005: 'FAIL',
  0x8013135b: 'NOT_YET_AVAILABLE',
  0x80131371: 'RUNTIME_UNINITIALIZED',
  0x80070057: 'INVALID_ARG',
  0x8007007a: 'INSUFFICIENT_BUFFER',
};
export const HR_UNKNOWN_COMMAND = 0x80131385;

export type IpcErrorCode =
  /** The peer's bytes are not a valid IPC message (bad magic, size, truncated payload). */
  | 'bad-response'
  /** The server answered with an error HRESULT. */
  | 'server-error'
  /** The connection closed before a complete response. */
  | 'closed'
  /** No answer in time. */
  | 'timeout'
  /** A request that cannot be encoded (too large, bad argument). */
  | 'bad-request';

export class IpcError extends Error {
  override readonly name = 'IpcError';
  constructor(
    readonly code: IpcErrorCode,
    message: string,
    readonly hresult?: number,
  ) {
    super(message);
  }
  get isUnknownCommand(): boolean {
    return this.hresult === HR_UNKNOWN_COMMAND;
  }
}

/** Little-endian payload writer. */
export class PayloadWriter {
  private parts: Uint8Array[] = [];
  private length = 0;
  private push(b: Uint8Array): this {
    this.parts.push(b);
    this.length += b.length;
    return this;
  }
  u8(v: number): this {
    return this.push(Uint8Array.of(v & 0xff));
  }
  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }
  u32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v >>> 0, true);
    return this.push(b);
  }
  u64(v: bigint | number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, BigInt(v)), true);
    return this.push(b);
  }
  /** u32 count including the NUL, UTF-16LE units, NUL. */
  string(s: string): this {
    const b = new Uint8Array(4 + (s.length + 1) * 2);
    const dv = new DataView(b.buffer);
    dv.setUint32(0, s.length + 1, true);
    for (let i = 0; i < s.length; i++) dv.setUint16(4 + i * 2, s.charCodeAt(i), true);
    return this.push(b);
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
}

export function encodeMessage(commandSet: number, commandId: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  const size = HEADER_SIZE + payload.length;
  if (size > MAX_MESSAGE_SIZE) throw new IpcError('bad-request', `the request is ${size} bytes; the diagnostics protocol allows at most 65,535`);
  const out = new Uint8Array(size);
  for (let i = 0; i < IPC_MAGIC.length; i++) out[i] = IPC_MAGIC.charCodeAt(i);
  const dv = new DataView(out.buffer);
  dv.setUint16(14, size, true);
  out[16] = commandSet;
  out[17] = commandId;
  out.set(payload, HEADER_SIZE);
  return out;
}

export interface IpcMessage {
  commandSet: number;
  commandId: number;
  payload: Uint8Array;
}

/**
 * Parses one message from the front of `buf`. Returns undefined when more bytes are needed, the
 * message and its length otherwise; throws IpcError('bad-response') for bytes that can never be a
 * message.
 */
export function tryParseMessage(buf: Uint8Array): { message: IpcMessage; length: number } | undefined {
  const check = Math.min(buf.length, 14);
  for (let i = 0; i < check; i++) {
    const want = i < IPC_MAGIC.length ? IPC_MAGIC.charCodeAt(i) : 0;
    if (buf[i] !== want) throw new IpcError('bad-response', `the peer did not answer with a .NET diagnostics message (bad magic at byte ${i})`);
  }
  if (buf.length < HEADER_SIZE) return undefined;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const size = dv.getUint16(14, true);
  if (size < HEADER_SIZE) throw new IpcError('bad-response', `response header gives size ${size}, below the 20-byte header`);
  if (buf.length < size) return undefined;
  return { message: { commandSet: buf[16]!, commandId: buf[17]!, payload: buf.slice(HEADER_SIZE, size) }, length: size };
}

/** Accumulates response bytes (any chunking) into one complete message. */
export class IpcResponseFramer {
  private buf = new Uint8Array(0);
  push(chunk: Uint8Array): void {
    const n = new Uint8Array(this.buf.length + chunk.length);
    n.set(this.buf);
    n.set(chunk, this.buf.length);
    this.buf = n;
  }
  /** The complete message, if one has arrived, and the bytes after it (the start of a stream). */
  take(): { message: IpcMessage; rest: Uint8Array } | undefined {
    const r = tryParseMessage(this.buf);
    if (r === undefined) return undefined;
    return { message: r.message, rest: this.buf.subarray(r.length) };
  }
}

/** Throws the server's error as an IpcError; returns the OK payload. */
export function expectOk(m: IpcMessage, what: string): Uint8Array {
  if (m.commandSet === CommandSet.Server && m.commandId === ServerResponse.OK) return m.payload;
  if (m.commandSet === CommandSet.Server && m.commandId === ServerResponse.Error) {
    const hr = m.payload.length >= 4 ? new DataView(m.payload.buffer, m.payload.byteOffset).getUint32(0, true) : 0;
    const name = HRESULTS[hr] ?? 'error';
    throw new IpcError('server-error', `the runtime refused ${what}: ${name} (0x${hr.toString(16).toUpperCase()})`, hr);
  }
  throw new IpcError('bad-response', `unexpected response to ${what}: command set 0x${m.commandSet.toString(16)}, id 0x${m.commandId.toString(16)}`);
}

/** Little-endian payload reader for responses, bounds-checked. */
export class PayloadReader {
  pos = 0;
  private readonly dv: DataView;
  constructor(
    private readonly b: Uint8Array,
    private readonly what: string,
  ) {
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  private need(n: number): void {
    if (this.pos + n > this.b.length) throw new IpcError('bad-response', `${this.what} response is too short (${this.b.length} bytes)`);
  }
  get remaining(): number {
    return this.b.length - this.pos;
  }
  u32(): number {
    this.need(4);
    const v = this.dv.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  u64(): bigint {
    this.need(8);
    const v = this.dv.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }
  guid(): string {
    this.need(16);
    const b = this.b;
    const p = this.pos;
    this.pos += 16;
    const h = (i: number): string => b[p + i]!.toString(16).padStart(2, '0');
    return `${h(3)}${h(2)}${h(1)}${h(0)}-${h(5)}${h(4)}-${h(7)}${h(6)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
  }
  /** A count of 0 is a null string (returned as ''). */
  string(): string {
    const n = this.u32();
    if (n === 0) return '';
    if (n > 0x7fff) throw new IpcError('bad-response', `${this.what} response has an implausible string length ${n}`);
    this.need(n * 2);
    let s = '';
    for (let i = 0; i < n; i++) {
      const c = this.dv.getUint16(this.pos + i * 2, true);
      if (i === n - 1) {
        if (c !== 0) throw new IpcError('bad-response', `${this.what} response has a string without its NUL terminator`);
      } else s += String.fromCharCode(c);
    }
    this.pos += n * 2;
    return s;
  }
}
