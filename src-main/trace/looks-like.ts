/**
 * What a stream that no trace format recognizes looks like, from its first bytes, so the error
 * can say "it looks like a ZIP archive" instead of only "bad magic": people open the wrong file
 * (a zip in a zip, a gzip, an ETW .etl, a JSON or text export, a PDF…) far more often than a
 * damaged trace. Signatures are the formats' own magic numbers; ETW and text are judged by
 * structure. Pure.
 */

/** Fixed signatures at offset 0 (the formats' specifications), most specific first. */
const SIGNATURES: readonly [bytes: readonly number[], what: string][] = [
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive'],
  [[0x50, 0x4b, 0x05, 0x06], 'an empty ZIP archive'],
  [[0x50, 0x4b, 0x07, 0x08], 'a ZIP archive'],
  [[0x1f, 0x8b], 'a gzip file (.gz): decompress it first'],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], 'a 7-Zip archive'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'an xz file'],
  [[0x42, 0x5a, 0x68], 'a bzip2 file'],
  [[0x28, 0xb5, 0x2f, 0xfd], 'a Zstandard file'],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 'a PDF document'],
  [[0x7f, 0x45, 0x4c, 0x46], 'an ELF executable or core dump'],
  [[0x4d, 0x5a], 'a Windows executable or DLL'],
  [[0x4d, 0x44, 0x4d, 0x50], 'a Windows minidump (.dmp)'],
  [ascii('SQLite format 3\0'), 'an SQLite database'],
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
];

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

/** A short phrase: "a ZIP archive", "JSON", "text", "binary data of an unknown kind (first bytes …)". */
export function looksLike(b: Uint8Array): string {
  if (b.length === 0) return 'an empty file';
  for (const [sig, what] of SIGNATURES) if (b.length >= sig.length && sig.every((v, i) => b[i] === v)) return what;
  // The ETL reader (etl/format.ts) takes every .etl that starts with its log-file header event;
  // what still looks like one here is damaged or written by something else.
  if (isEtl(b))
    return 'a Windows ETW trace (.etl) whose first buffer does not start with the log-file header event, so it cannot be read (damaged, or not a log file)';
  const text = textKind(b);
  if (text !== undefined) return text;
  const hex = [...b.subarray(0, 8)].map((x) => x.toString(16).padStart(2, '0')).join(' ');
  return `binary data of an unknown kind (first bytes ${hex})`;
}

/**
 * An ETW log file starts with a WMI_BUFFER_HEADER (0x48 bytes: u32 BufferSize, u32 SavedOffset,
 * u32 CurrentOffset, …) whose first event is the logger's SYSTEM_TRACE_HEADER (u16 Version,
 * u8 HeaderType, u8 MarkerFlags with TRACE_HEADER_FLAG | TRACE_HEADER_EVENT_TRACE = 0xC0).
 * Buffers are whole kilobytes (1 KB and up), and the saved offset lies inside the buffer.
 */
function isEtl(b: Uint8Array): boolean {
  if (b.length < 0x4c) return false;
  const v = new DataView(b.buffer, b.byteOffset, b.length);
  const size = v.getUint32(0, true);
  const saved = v.getUint32(4, true);
  return size >= 0x400 && size % 1024 === 0 && saved >= 0x48 && saved <= size && (b[0x4b]! & 0xc0) === 0xc0;
}

/** JSON, XML/HTML or plain text: the first bytes are printable UTF-8 (or a UTF-16 byte order mark). */
function textKind(b: Uint8Array): string | undefined {
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff)) return 'UTF-16 text';
  let i = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  const n = Math.min(b.length, 512);
  let printable = 0;
  for (let j = i; j < n; j++) {
    const c = b[j]!;
    if (c === 9 || c === 10 || c === 13 || (c >= 0x20 && c !== 0x7f)) printable++;
    else if (c === 0 || c < 0x20) return undefined;
  }
  if (printable < (n - i) * 0.95) return undefined;
  while (i < n && (b[i] === 0x20 || b[i] === 9 || b[i] === 10 || b[i] === 13)) i++;
  const c = b[i];
  if (c === 0x7b || c === 0x5b) return 'JSON';
  if (c === 0x3c) return 'XML or HTML';
  return 'text';
}
