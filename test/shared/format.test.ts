/** Numbers as the user reads them in tiles, tables, the CLI and reports. */
import { describe, expect, it } from 'vitest';
import { formatCount, formatDecimal, formatMB, formatMs, formatPercent, formatRate } from '../../src-main/shared/format.js';

describe('number formatting', () => {
  it('a pause that rounds to a whole second reads in seconds, never "1,000 ms"', () => {
    expect(formatMs(999.69)).toBe('1.00 s');
    expect(formatMs(999.4)).toBe('999 ms');
    expect(formatMs(1284)).toBe('1.28 s');
  });

  it('a pause that rounds to a millisecond reads in ms, never "1,000 µs"', () => {
    expect(formatMs(0.9996)).toBe('1.00 ms');
    expect(formatMs(0.85)).toBe('850 µs');
    // Zero follows the sub-millisecond rule: "0 µs" beside "2 µs", not "0.00 ms".
    expect(formatMs(0)).toBe('0 µs');
    expect(formatMs(0.002)).toBe('2 µs');
  });

  it('a size that rounds to a gigabyte or a megabyte changes unit, never "1,000 MB" or "1,000 KB"', () => {
    expect(formatMB(999.7)).toBe('1.00 GB');
    expect(formatMB(0.9996)).toBe('1.00 MB');
    expect(formatMB(312.4)).toBe('312 MB');
  });

  it('a size from 1,000 GB up reads in TB, never "1,066.64 GB"', () => {
    expect(formatMB(1_066_640)).toBe('1.07 TB');
    expect(formatMB(999_996)).toBe('1.00 TB');
    expect(formatMB(999_494)).toBe('999 GB');
    expect(formatMB(999_500)).toBe('1.00 TB');
    expect(formatMB(2_500_000_000)).toBe('2,500 TB');
    expect(formatMB(-1_200_000)).toBe('-1.20 TB');
  });

  it('a rate from 1,000 MB/s up reads in GB/s, never "2,201 MB/s"', () => {
    expect(formatRate(2201)).toBe('2.20 GB/s');
    expect(formatRate(999.6)).toBe('1.00 GB/s');
    expect(formatRate(312.4)).toBe('312 MB/s');
    expect(formatRate(12.34)).toBe('12.3 MB/s');
  });

  it('a value that rounds up to the next power of ten takes the fewer decimals: "100 ms", never "100.0 ms"', () => {
    expect(formatMs(99.97)).toBe('100 ms');
    expect(formatMs(99.94)).toBe('99.9 ms');
    expect(formatMs(9.997)).toBe('10.0 ms');
    expect(formatMB(99.96)).toBe('100 MB');
    expect(formatRate(99.97)).toBe('100 MB/s');
  });

  it('gigabytes carry about three significant digits like megabytes: "653 GB", not "653.00 GB"', () => {
    expect(formatMB(653_000)).toBe('653 GB');
    expect(formatMB(65_300)).toBe('65.3 GB');
    expect(formatMB(6_530)).toBe('6.53 GB');
  });

  it('one GC is "1 GC", not "1 GCs"', () => {
    expect(formatCount(1, 'GC')).toBe('1 GC');
    expect(formatCount(2, 'GC')).toBe('2 GCs');
    expect(formatCount(12345, 'GC')).toBe('12,345 GCs');
    expect(formatCount(1, 'heap')).toBe('1 heap');
  });

  it('a share that is not all reads below 100 %, one that is not none above 0 %: "99.9 %", never "100 %" for 3,912 of 3,915', () => {
    expect(formatPercent((100 * 3912) / 3915, 0)).toBe('99.9 %');
    expect(formatPercent(99.93, 0)).toBe('99.9 %');
    expect(formatPercent(99.996, 1)).toBe('99.996 %');
    expect(formatPercent(0.04, 0)).toBe('0.04 %');
    expect(formatPercent(100, 0)).toBe('100 %');
    expect(formatPercent(0, 2)).toBe('0.00 %');
    expect(formatPercent(42.4, 0)).toBe('42 %');
    expect(formatPercent(null)).toBe('n/a');
  });
});

describe('numbers formatted without Intl (the CLI does not pay for loading ICU)', () => {
  const intl = (digits: number): Intl.NumberFormat =>
    new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: 'negative' });

  it('read exactly as Intl en-US prints them: shortest decimal rounded half away from zero, commas, no "-0"', () => {
    const fmts = [0, 1, 2, 3, 4, 6].map((d) => [d, intl(d)] as const);
    const values = [
      0,
      -0,
      0.5,
      -0.5,
      1.5,
      2.5,
      1.005,
      2.675,
      -2.675,
      0.0005,
      0.00049,
      0.9995,
      0.9994,
      9.995,
      99.95,
      999.5,
      999_999.5,
      5e-7,
      -5e-7,
      1e-10,
      1e21,
      1.2345e22,
      123456789.125,
      2 ** 53,
      Number.MAX_SAFE_INTEGER + 2,
      1e300,
      Number.MIN_VALUE,
      0.1 + 0.2,
      1 / 3,
      -1 / 3,
    ];
    // Values of every magnitude, and halves at every decimal the formats cut at.
    let seed = 12345;
    const rand = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296;
    for (let i = 0; i < 20000; i++) {
      const mag = Math.floor(rand() * 30) - 12;
      const x = (rand() - 0.3) * 10 ** mag;
      values.push(x);
      const cut = Math.floor(rand() * 5);
      values.push(Math.round(x * 10 ** cut) / 10 ** cut + 0.5 / 10 ** cut);
    }
    const wrong: string[] = [];
    for (const v of values) {
      for (const [d, f] of fmts) {
        const want = f.format(v);
        const got = formatDecimal(v, d);
        if (got !== want && wrong.length < 10) wrong.push(`${v} with ${d} decimals: ${got}, Intl ${want}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a count reads with thousands separators and a GC window start never reads "-0.000 s"', () => {
    expect(formatCount(1234567, 'GC')).toBe('1,234,567 GCs');
    expect(formatDecimal(-0.0001, 3)).toBe('0.000');
    expect(formatDecimal(-0.0005, 3)).toBe('-0.001');
  });
});
