/**
 * PromiseCache: what opening a session relies on — requests arriving together share one read or
 * diagnosis, a newer session version is computed afresh, a failure is retried, and the cache stays
 * within its size.
 */
import { describe, expect, it } from 'vitest';
import { PromiseCache } from '../../src-main/common/promise-cache.js';

const counter = () => {
  let n = 0;
  return {
    calls: () => n,
    make: (v: string) => () => {
      n++;
      return Promise.resolve(v);
    },
  };
};

describe('PromiseCache', () => {
  it('shares one computation between callers, also while it is still in flight', async () => {
    const c = new PromiseCache<number, string>();
    let release!: (v: string) => void;
    let calls = 0;
    const slow = () => {
      calls++;
      return new Promise<string>((r) => (release = r));
    };
    const a = c.get(1, 'v1', slow);
    const b = c.get(1, 'v1', slow);
    expect(a).toBe(b);
    release('x');
    expect(await Promise.all([a, b])).toEqual(['x', 'x']);
    expect(await c.get(1, 'v1', slow)).toBe('x');
    expect(calls).toBe(1);
  });

  it('computes a newer version afresh and keeps only the newest', async () => {
    const c = new PromiseCache<number, string>();
    const k = counter();
    expect(await c.get(1, 'v1', k.make('old'))).toBe('old');
    expect(await c.get(1, 'v2', k.make('new'))).toBe('new');
    expect(await c.get(1, 'v2', k.make('again'))).toBe('new');
    expect(k.calls()).toBe(2);
    expect(c.size).toBe(1);
  });

  it('does not keep a failure: asked again, it computes again', async () => {
    const c = new PromiseCache<number, string>();
    await expect(c.get(1, 'v', () => Promise.reject(new Error('disk gone')))).rejects.toThrow('disk gone');
    await Promise.resolve();
    expect(await c.get(1, 'v', () => Promise.resolve('ok'))).toBe('ok');
  });

  it('a failure that settles after a newer version was asked does not drop the newer one', async () => {
    const c = new PromiseCache<number, string>();
    let fail!: (e: Error) => void;
    const first = c.get(1, 'v1', () => new Promise<string>((_, rej) => (fail = rej)));
    const k = counter();
    expect(await c.get(1, 'v2', k.make('v2'))).toBe('v2');
    fail(new Error('late'));
    await expect(first).rejects.toThrow('late');
    expect(await c.get(1, 'v2', k.make('v2 again'))).toBe('v2');
    expect(k.calls()).toBe(1);
  });

  it('holds at most its size, dropping the least recently used key', async () => {
    const c = new PromiseCache<string, string>(2);
    const k = counter();
    await c.get('a', '1', k.make('a'));
    await c.get('b', '1', k.make('b'));
    await c.get('a', '1', k.make('a2')); // a is now the most recent
    await c.get('c', '1', k.make('c')); // drops b
    expect(c.size).toBe(2);
    expect(await c.get('a', '1', k.make('a3'))).toBe('a');
    expect(await c.get('b', '1', k.make('b2'))).toBe('b2');
    expect(k.calls()).toBe(4);
  });

  it('deleteWhere drops the keys it picks and only those', async () => {
    const c = new PromiseCache<string, string>();
    const k = counter();
    for (const key of ['1|a', '1|b', '12|a']) await c.get(key, 'v', k.make(key));
    c.deleteWhere((key) => key.startsWith('1|'));
    expect(c.size).toBe(1);
    expect(await c.get('12|a', 'v', k.make('again'))).toBe('12|a');
  });
});
