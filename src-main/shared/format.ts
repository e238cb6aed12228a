/**
 * Numbers formatted for reading, the same in the CLI, the HTML report and the app (docs/ui.md
 * "Numbers people can trust"): units on every number, thousands separators, "n/a" for a value
 * the trace cannot support.
 */

export const NA = 'n/a';

/**
 * What `new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits:
 * digits, signDisplay: 'negative' }).format(v)` gives for a finite v, without Intl: creating the
 * first Intl formatter loads ICU's locale data, ~18 ms of every CLI run (a tenth of a small
 * trace's whole report). As ICU does, it rounds the shortest decimal that reads back as v (what
 * String(v) prints: 1.005 gives "1.01", where toFixed's exact binary value gives "1.00"), half
 * away from zero; groups the integer digits by three with commas; and never shows "-0": a value
 * that rounds to zero reads "0" (a finding's window started "-0.000 s": its first GC began a hair
 * before the session's time origin). test/shared/format.test.ts checks it against Intl.
 */
export function formatDecimal(v: number, digits: number): string {
  const s = String(Math.abs(v));
  let int: string;
  let frac: string;
  if (s.indexOf('e') < 0) {
    // Plain notation (1e-7 ≤ |v| < 1e21): round the printed digits as a string.
    const dot = s.indexOf('.');
    int = dot < 0 ? s : s.slice(0, dot);
    const all = dot < 0 ? '' : s.slice(dot + 1);
    if (all.length <= digits) frac = all.padEnd(digits, '0');
    else {
      frac = all.slice(0, digits);
      if (all.charCodeAt(digits) >= 53) {
        const up = bump(int + frac);
        int = up.slice(0, up.length - digits);
        frac = up.slice(up.length - digits);
      }
    }
  } else [int, frac] = roundExponential(s, digits);
  let zero = int === '0';
  for (let i = 0; zero && i < frac.length; i++) zero = frac.charCodeAt(i) === 48;
  return `${v < 0 && !zero ? '-' : ''}${group(int)}${digits > 0 ? `.${frac}` : ''}`;
}

/** Adds one to the last digit of a digit string, carrying: "0199" → "0200", "99" → "100". */
function bump(d: string): string {
  let i = d.length - 1;
  while (i >= 0 && d.charCodeAt(i) === 57) i--;
  if (i < 0) return `1${'0'.repeat(d.length)}`;
  return d.slice(0, i) + String.fromCharCode(d.charCodeAt(i) + 1) + '0'.repeat(d.length - 1 - i);
}

/** "1234567" → "1,234,567". */
function group(int: string): string {
  if (int.length <= 3) return int;
  let out = int.slice(0, int.length % 3 || 3);
  for (let i = out.length; i < int.length; i += 3) out += `,${int.slice(i, i + 3)}`;
  return out;
}

/** formatDecimal's integer and fraction digits for what String prints with an exponent ("5e-7", "1.2e+21"). */
function roundExponential(s: string, digits: number): [string, string] {
  const e = s.indexOf('e');
  const mantissa = s.slice(0, e);
  const dot = mantissa.indexOf('.');
  // The significant digits, and where the decimal point goes: "1.25e-7" → 125 and −6.
  const ds = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const point = (dot < 0 ? mantissa.length : dot) + Number(s.slice(e + 1));
  if (point > 0) {
    // Large: every digit is in the integer part.
    return [ds.padEnd(point, '0'), '0'.repeat(digits)];
  }
  // Small: −point zeros after the point, then the digits; keep `digits` of that fraction.
  const all = '0'.repeat(-point) + ds;
  let frac = all.slice(0, digits).padEnd(digits, '0');
  let int = '0';
  if (all.length > digits && all.charCodeAt(digits) >= 53) {
    const up = bump(int + frac);
    int = up.slice(0, up.length - digits);
    frac = up.slice(up.length - digits);
  }
  return [int, frac];
}

export function formatInt(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? NA : formatDecimal(v, 0);
}

/** `1 GC`, `2 GCs`, `1,024 GCs`: a count with its noun, singular for one. */
export function formatCount(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatInt(n)} ${n === 1 ? singular : plural}`;
}

export function formatFixed(v: number | null | undefined, digits: number): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NA;
  return formatDecimal(v, digits);
}

/**
 * About three significant digits: 2 decimals below 10, 1 below 100, none from 100 — judged on the
 * value as it will be rounded, so 99.97 reads "100", never "100.0", and 9.996 reads "10.0".
 */
function sig3(v: number): string {
  const a = Math.abs(v);
  return formatFixed(v, a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2);
}

/** 12.4 ms, 850 µs, 0 µs, 2.31 s. */
export function formatMs(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NA;
  const a = Math.abs(v);
  // Unit boundaries are judged on the value as it will be rounded, so 999.7 ms reads "1.00 s",
  // never "1,000 ms", and 0.9996 ms reads "1.00 ms", never "1,000 µs".
  if (a >= 999.5) return `${sig3(v / 1000)} s`;
  if (a >= 0.9995) return `${sig3(v)} ms`;
  // Below a millisecond, zero included: one rule, so a GC's "suspend 0 µs" sits beside another's
  // "2 µs", not "0.00 ms".
  return `${formatFixed(v * 1000, 0)} µs`;
}

/** From MB (10^6 bytes): 1.07 TB, 1.27 GB, 312 MB, 40.2 KB (decimal units, as the MB columns). */
export function formatMB(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NA;
  const a = Math.abs(v);
  // 999,500 MB would read "1,000 GB": from there on, terabytes. Each unit with about three
  // significant digits ("653 GB", not "653.00 GB").
  if (a >= 999_500) return `${sig3(v / 1e6)} TB`;
  if (a >= 999.5) return `${sig3(v / 1000)} GB`;
  if (a >= 0.9995) return `${sig3(v)} MB`;
  if (a === 0) return '0 MB';
  return `${formatFixed(v * 1000, a >= 0.1 ? 0 : 1)} KB`;
}

/**
 * A percentage with `digits` decimals, and more (up to three) where those would round a share
 * that is neither none nor all to "0 %" or "100 %": 3,912 of 3,915 reads "99.9 %", never "100 %".
 */
export function formatPercent(v: number | null | undefined, digits = 1): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NA;
  let d = digits;
  const a = Math.abs(v);
  if (a > 0 && a < 100) {
    for (let r = Number(a.toFixed(d)); d < 3 && (r === 0 || r === 100); r = Number(a.toFixed(d))) d++;
  }
  return `${formatFixed(v, d)} %`;
}

/** From MB/s: 312 MB/s, 2.20 GB/s (the sizes' units per second; never "2,201 MB/s" nor "100.0 MB/s"). */
export function formatRate(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NA;
  const a = Math.abs(v);
  if (a >= 999.5) return `${sig3(v / 1000)} GB/s`;
  return `${formatFixed(v, a >= 99.95 ? 0 : 1)} MB/s`;
}

/**
 * Makes text safe to print as one line on a terminal: control characters (C0, DEL, C1 — an
 * `ESC[2J` from a hostile file would clear the screen, a newline would split the message) and
 * Unicode line/paragraph separators become visible escapes such as `\x1b` and `\n`.
 */
export function escapeControl(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    const code = c.charCodeAt(0);
    return named[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}
