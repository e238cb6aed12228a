/**
 * The names of a zip's entries, read from its central directory (APPNOTE 4.3.12-4.3.16) at the
 * end of the file, before the entries are streamed: a zip holding several traces is told which
 * ones it holds (and one chosen by name, `--entry`) before any of them is decoded. The streaming
 * inflater (trace-file.ts) sees local headers only as it reaches them, so without this the second
 * trace was found only after the first had been read whole.
 *
 * Bounded: at most the last 64 KiB + 22 bytes are searched for the end record, and a central
 * directory larger than MAX_DIRECTORY_BYTES is not read (undefined: the caller falls back to the
 * streaming order). Zip64 end records are followed (PerfView's large .etl.zip files have them).
 */
import { open } from 'node:fs/promises';

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CD_SIG = 0x02014b50;
/** End record (22 bytes) plus the longest comment (65,535 bytes). */
const TAIL = 22 + 0xffff;
/** A central directory of ~100,000 entries; a trace zip has a handful. */
const MAX_DIRECTORY_BYTES = 8 << 20;

/** The entry names in directory order, or undefined when the directory cannot be read (a damaged or truncated zip). */
export async function zipEntryNames(path: string): Promise<string[] | undefined> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await fh.stat();
    const tailLen = Math.min(size, TAIL);
    const tail = Buffer.alloc(tailLen);
    await fh.read(tail, 0, tailLen, size - tailLen);
    let eocd = -1;
    for (let i = tailLen - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD_SIG) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) return undefined;
    let count = tail.readUInt16LE(eocd + 10);
    let cdSize = tail.readUInt32LE(eocd + 12);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      // Zip64: the locator sits just before the end record and points at the zip64 end record.
      const loc = eocd - 20;
      if (loc < 0 || tail.readUInt32LE(loc) !== ZIP64_LOCATOR_SIG) return undefined;
      const at = Number(tail.readBigUInt64LE(loc + 8));
      const rec = Buffer.alloc(56);
      if (!Number.isSafeInteger(at) || at + 56 > size || (await fh.read(rec, 0, 56, at)).bytesRead !== 56 || rec.readUInt32LE(0) !== ZIP64_EOCD_SIG)
        return undefined;
      count = Number(rec.readBigUInt64LE(32));
      cdSize = Number(rec.readBigUInt64LE(40));
      cdOffset = Number(rec.readBigUInt64LE(48));
    }
    if (cdSize > MAX_DIRECTORY_BYTES || cdOffset + cdSize > size) return undefined;
    const cd = Buffer.alloc(cdSize);
    if ((await fh.read(cd, 0, cdSize, cdOffset)).bytesRead !== cdSize) return undefined;
    const names: string[] = [];
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (p + 46 > cdSize || cd.readUInt32LE(p) !== CD_SIG) return undefined;
      const flags = cd.readUInt16LE(p + 8);
      const nameLen = cd.readUInt16LE(p + 28);
      const extraLen = cd.readUInt16LE(p + 30);
      const commentLen = cd.readUInt16LE(p + 32);
      if (p + 46 + nameLen > cdSize) return undefined;
      // Bit 11: the name is UTF-8; otherwise code page 437, whose ASCII part is what trace names use.
      names.push(cd.toString((flags & 0x800) !== 0 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLen));
      p += 46 + nameLen + extraLen + commentLen;
    }
    return names;
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}
