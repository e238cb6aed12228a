import { describe, expect, it } from 'vitest';
import { HeapGraphBuilder } from '../../src-main/heap/graph.js';
import { analyzeHeap, findTypes, pathsForTypes, topRetainers } from '../../src-main/heap/analysis.js';
import { clrToPerfViewName, displayName, stripSizeBucket } from '../../src-main/heap/type-names.js';
import { diffTypes } from '../../src-main/heap/diff.js';

/**
 * root → [static var Cache.Items] → Dictionary → Entry[] → Customer×n; the same customers are also
 * on a thread's stack ([local vars] → Customer), a shorter path the paths must not prefer.
 */
function leakGraph(customers: number) {
  const b = new HeapGraphBuilder();
  const T = {
    root: b.type({ fullName: '[.NET Roots]', name: '[.NET Roots]', module: '', root: 'root' }),
    statics: b.type({ fullName: '[static vars]', name: '[static vars]', module: '', root: 'group' }),
    items: b.type({ fullName: '[static var Cache.Items]', name: '[static var Cache.Items]', module: '', root: 'static' }),
    locals: b.type({ fullName: '[local vars]', name: '[local vars]', module: '', root: 'stack' }),
    dict: b.type({
      fullName: 'System.Collections.Generic.Dictionary<System.Int32,Customer>',
      name: 'Dictionary<int, Customer>',
      module: 'System.Private.CoreLib.dll',
    }),
    entries: b.type({
      fullName: 'System.Collections.Generic.Dictionary.Entry<System.Int32,Customer>[]',
      name: 'Entry<int, Customer>[]',
      module: 'System.Private.CoreLib.dll',
    }),
    customer: b.type({ fullName: 'Customer', name: 'Customer', module: 'app.dll' }),
    bytes: b.type({ fullName: 'System.Byte[]', name: 'byte[]', module: 'System.Private.CoreLib.dll' }),
  };
  // 0 root, 1 [static vars], 2 static, 3 [local vars], 4 dict, 5 entries, 6.. customers, then byte[]s
  b.node(T.root, 0);
  b.child(1);
  b.child(3);
  b.node(T.statics, 0);
  b.child(2);
  b.node(T.items, 0);
  b.child(4);
  b.node(T.locals, 0);
  for (let i = 0; i < customers; i++) b.child(6 + i);
  b.node(T.dict, 80);
  b.child(5);
  b.node(T.entries, 24 + 24 * customers);
  for (let i = 0; i < customers; i++) b.child(6 + i);
  for (let i = 0; i < customers; i++) {
    b.node(T.customer, 56);
    b.child(6 + customers + i);
  }
  for (let i = 0; i < customers; i++) b.node(T.bytes, 124);
  return { graph: b.finish(0, 1 + 2 * customers), T };
}

describe('paths to roots', () => {
  it('prefer the static over a shorter path from a local variable, and start at the root that says its kind', () => {
    const { graph } = leakGraph(10);
    const a = analyzeHeap(graph);
    const groups = pathsForTypes(
      a,
      findTypes(a, 'Customer').map((t) => t.type),
      5,
    );
    expect(groups).toHaveLength(1);
    expect(groups[0]!.instances).toBe(10);
    expect(groups[0]!.path.map((n) => n.name)).toEqual(['[static var Cache.Items]', 'Dictionary<int, Customer>', 'Entry<int, Customer>[]', 'Customer']);
  });

  it('the biggest retainer is the dictionary the static holds, not its entries', () => {
    const a = analyzeHeap(leakGraph(10).graph);
    // The customers are also on the stack, so the dictionary retains only itself and its entries array.
    const top = topRetainers(a, 3);
    expect(top[0]!.name).toBe('Dictionary<int, Customer>');
    expect(top[0]!.retainedBytes).toBe(80 + 24 + 240);
    expect(a.totals).toEqual({ objects: 22, bytes: 80 + 264 + 560 + 1240, references: 21, unreachable: 0 });
  });
});

describe('diff of two snapshots by type', () => {
  it('says which type grew by how much (second minus first) and which types are new', () => {
    const before = analyzeHeap(leakGraph(10).graph).types;
    const after = analyzeHeap(leakGraph(25).graph).types;
    const d = diffTypes(before, after);
    const customer = d.find((r) => r.name === 'Customer')!;
    expect(customer).toMatchObject({ count: 25, countDelta: 15, bytesDelta: 15 * 56, isNew: false });
    expect(d[0]!.name).toBe('byte[]'); // biggest growth in bytes first: 15 × 124
    expect(d[0]!.bytesDelta).toBe(15 * 124);
    const gone = diffTypes(
      after,
      before.filter((t) => t.name !== 'byte[]'),
    );
    expect(gone.find((r) => r.name === 'byte[]')).toMatchObject({ isGone: true, countDelta: -25 });
    expect(
      diffTypes(
        before.filter((t) => t.name !== 'Customer'),
        after,
      ).find((r) => r.name === 'Customer')!.isNew,
    ).toBe(true);
  });
});

describe('type names', () => {
  it('rewrites runtime names the way PerfView/dotnet-gcdump do', () => {
    expect(clrToPerfViewName('System.Collections.Generic.Dictionary`2[System.Int32,Customer]')).toBe(
      'System.Collections.Generic.Dictionary<System.Int32,Customer>',
    );
    expect(clrToPerfViewName('System.Byte[]')).toBe('System.Byte[]');
    expect(stripSizeBucket('System.Object[] (Bytes > 100K)')).toBe('System.Object[]');
  });

  it('shows names as people write them', () => {
    expect(displayName('System.Collections.Generic.Dictionary<System.Int32,Customer>')).toBe('Dictionary<int, Customer>');
    expect(displayName('System.Collections.Generic.Dictionary`2[System.Int32,Customer]')).toBe('Dictionary<int, Customer>');
    expect(displayName('System.Collections.Generic.Dictionary`2+Entry[[System.Int32, System.Private.CoreLib],[Customer, app]][]')).toBe(
      'Dictionary.Entry<int, Customer>[]',
    );
    expect(displayName('System.Byte[]')).toBe('byte[]');
    expect(displayName('System.Int32[,]')).toBe('int[,]');
    expect(displayName('System.Collections.Generic.List<System.String>[]')).toBe('List<string>[]');
    expect(displayName('System.Object[] (Bytes > 100K)')).toBe('object[]');
    expect(displayName('[static var Cache.Items]')).toBe('[static var Cache.Items]');
    expect(displayName('(Type  HTMLDivElement <|tagName:DIV|>)')).toBe('(Type  HTMLDivElement <|tagName:DIV|>)');
  });
});
