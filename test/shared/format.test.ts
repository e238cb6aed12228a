/** Numbers as the user reads them in tiles, tables, the CLI and reports. */
import { describe, expect, it } from 'vitest';
import { formatCount, formatMB, formatMs, formatPercent, formatRate } from '../../src-main/shared/format.js';

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
