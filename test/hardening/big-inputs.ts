/**
 * Large hostile inputs made at test time (never committed): a raw trace of any size made of
 * one well-formed block group repeated, and zip bombs written as repeated, independently
 * flushed deflate pieces (so a multi-GB entry is built from one small compressed piece without
 * ever holding the uncompressed bytes).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import zlib from 'node:zlib';
import { Bytes, V4Builder, type BuiltEvent } from '../helpers/nettrace-builder.js';

const FILLER_PROVIDER = 'GCScope-Test-Filler';

/** A V4 header (trace + metadata) and a block group (events + sequence point) that can follow it any number of times. */
export function traceParts(o: { sequencePoints?: boolean } = {}): { head: Uint8Array; unit: Uint8Array; end: Uint8Array } {
  const start = (): V4Builder =>
    new V4Builder().trace({ syncQpc: 0n, freq: 1_000_000, pointerSize: 8, pid: 4242 }).metadata([{ id: 1, provider: FILLER_PROVIDER, eventId: 1, version: 0 }]);
  const head = start().partial();
  // Blocks are 4-byte aligned from the stream start, so a group repeats verbatim only if its
  // length is a multiple of 4. The padding before a block depends on where it starts, so only
  // the last block of the group can change where the group ends: grow its last payload until
  // the group length is a multiple of 4.
  for (let extra = 0; extra < 16; extra++) {
    const events: BuiltEvent[] = [];
    for (let i = 0; i < 1000; i++)
      events.push({
        metadataId: 1,
        threadId: 7,
        captureThreadId: 7,
        sequenceNumber: i + 1,
        timestamp: BigInt(1000 + i * 10),
        payload: new Uint8Array(i === 999 ? 1000 + extra : 1000),
      });
    const b = start();
    if (o.sequencePoints !== false) b.sequencePoint([[7, 0]], 0n);
    const unit = b.events(events).partial().subarray(head.length);
    if (unit.length % 4 === 0) return { head, unit, end: new Bytes().u8(1).toUint8Array() };
  }
  throw new Error('no 4-byte aligned block group');
}

/**
 * Writes a raw .nettrace of at least `bytes` bytes; returns its size. Without sequence points
 * nothing in the stream tells the reader it may release the events it holds for time ordering.
 */
export function writeLargeTrace(path: string, bytes: number, o: { sequencePoints?: boolean } = {}): number {
  const { head, unit, end } = traceParts(o);
  const per = Math.max(1, Math.floor((16 << 20) / unit.length));
  const big = Buffer.alloc(per * unit.length);
  for (let i = 0; i < per; i++) big.set(unit, i * unit.length);
  const fd = openSync(path, 'w');
  let size = 0;
  try {
    size += writeSync(fd, head);
    while (size < bytes) size += writeSync(fd, big);
    size += writeSync(fd, end);
  } finally {
    closeSync(fd);
  }
  return size;
}

/** Raw deflate of `data` ending on a byte boundary with the dictionary reset: pieces can be repeated. */
function flushedPiece(data: Uint8Array): Buffer {
  return zlib.deflateRawSync(data, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
}

/**
 * A one-entry zip whose entry is `pieces` in order, each [uncompressed bytes, repeat count];
 * the entry is deflated piece by piece. Returns compressed and uncompressed sizes.
 */
function writeBomb(path: string, name: string, pieces: [Uint8Array, number][]): { zipBytes: number; unzippedBytes: number } {
  let crc = 0;
  let usize = 0;
  let csize = 0;
  const compressed = pieces.map(([data, n]) => {
    const c = flushedPiece(data);
    for (let i = 0; i < n; i++) crc = zlib.crc32(data, crc);
    usize += data.length * n;
    csize += c.length * n;
    return [c, n] as const;
  });
  const last = zlib.deflateRawSync(new Uint8Array(0)); // final empty block
  csize += last.length;
  if (usize >= 2 ** 32) throw new Error('zip64 not needed here: keep the bomb under 4 GiB');
  const fname = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(csize, 18);
  local.writeUInt32LE(usize, 22);
  local.writeUInt16LE(fname.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(csize, 20);
  central.writeUInt32LE(usize, 24);
  central.writeUInt16LE(fname.length, 28);
  const cdOffset = 30 + fname.length + csize;
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(1, 8);
  eocd.writeUInt16LE(1, 10);
  eocd.writeUInt32LE(46 + fname.length, 12);
  eocd.writeUInt32LE(cdOffset, 16);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, local);
    writeSync(fd, fname);
    for (const [c, n] of compressed) for (let i = 0; i < n; i++) writeSync(fd, c);
    writeSync(fd, last);
    writeSync(fd, central);
    writeSync(fd, fname);
    writeSync(fd, eocd);
  } finally {
    closeSync(fd);
  }
  return { zipBytes: cdOffset + 46 + fname.length + 22, unzippedBytes: usize };
}

/** About 2 MB of zip that unzips to 2 GiB of zeros. */
export function writeZerosBomb(path: string): { zipBytes: number; unzippedBytes: number } {
  return writeBomb(path, 'zeros.nettrace', [[new Uint8Array(16 << 20), 128]]);
}

/** A well-formed trace header followed by ~3.5 GiB of valid, highly compressible event blocks. */
export function writeTraceBomb(path: string): { zipBytes: number; unzippedBytes: number } {
  const { head, unit, end } = traceParts();
  const per = Math.max(1, Math.floor((16 << 20) / unit.length));
  const big = new Uint8Array(per * unit.length);
  for (let i = 0; i < per; i++) big.set(unit, i * unit.length);
  return writeBomb(path, 'bomb.nettrace', [
    [head, 1],
    [big, Math.floor((3.5 * 1024 ** 3) / big.length)],
    [end, 1],
  ]);
}
