/**
 * Root pseudo-nodes: what keeps objects alive, and in which order a path to a root is preferred.
 *
 * The names are PerfView's (its DotNetHeapDumpGraphReader builds them under `[.NET Roots]`, and
 * dotnet-gcdump, PerfView and Visual Studio files hold them), so a snapshot GCScope captures and
 * one it opens read the same: `[static vars]` → `[static var Type.Field]`, `[local vars]`,
 * `[other roots]` → `[strong Handles]`, `[pinning Handles]`, `[finalizer Handles]`,
 * `[Dependent Handles]`, `[other Handles]`, and `[COM/WinRT Objects]`.
 */

export type RootKind =
  /** The virtual root above every other root. */
  | 'root'
  /** A group of roots (`[static vars]`, `[other roots]`…): no objects of its own. */
  | 'group'
  | 'static'
  | 'thread-static'
  | 'strong-handle'
  | 'pinned-handle'
  /** A ConditionalWeakTable value (a dependent handle): alive while its key is. */
  | 'dependent-handle'
  | 'other-handle'
  | 'com'
  | 'stack'
  | 'finalizer'
  /** A node referenced but never defined (PerfView's UNDEFINED; a null stack root). */
  | 'undefined';

/**
 * Path preference (lower first): a leak is held by a static or a strong handle; a local or the
 * finalizer queue holding the same object is a passing reference (PerfView's spanning tree orders
 * them the same way).
 */
export const ROOT_PRIORITY: readonly RootKind[] = [
  'static',
  'thread-static',
  'strong-handle',
  'pinned-handle',
  'dependent-handle',
  'other-handle',
  'com',
  'stack',
  'finalizer',
];

export const ROOT_NAMES = {
  root: '[.NET Roots]',
  staticVars: '[static vars]',
  threadStaticVars: '[thread static vars]',
  otherRoots: '[other roots]',
  localVars: '[local vars]',
  strong: '[strong Handles]',
  pinning: '[pinning Handles]',
  finalizer: '[finalizer Handles]',
  dependent: '[Dependent Handles]',
  other: '[other Handles]',
  com: '[COM/WinRT Objects]',
} as const;

export function staticRootName(typeName: string, field: string): string {
  return `[static var ${typeName}.${field}]`;
}

/** The root kind of a type read from a file, by its PerfView name; undefined for an object type. */
export function rootKindOfName(name: string): RootKind | undefined {
  if (name === 'UNDEFINED') return 'undefined';
  if (!name.startsWith('[') || !name.endsWith(']')) return undefined;
  switch (name) {
    case ROOT_NAMES.root:
      return 'root';
    case ROOT_NAMES.staticVars:
    case ROOT_NAMES.threadStaticVars:
    case ROOT_NAMES.otherRoots:
      return 'group';
    case ROOT_NAMES.localVars:
      return 'stack';
    case ROOT_NAMES.strong:
      return 'strong-handle';
    case ROOT_NAMES.pinning:
      return 'pinned-handle';
    case ROOT_NAMES.finalizer:
      return 'finalizer';
    case ROOT_NAMES.dependent:
      return 'dependent-handle';
    case ROOT_NAMES.other:
      return 'other-handle';
    case ROOT_NAMES.com:
      return 'com';
  }
  if (name.startsWith('[static var ')) return 'static';
  if (name.startsWith('[CCW ')) return 'com';
  // Other bracketed names (`[RCW X]` is an object; JScript dumps have their own groups): an RCW
  // is a real object, everything else bracketed is treated as a group of roots.
  if (name.startsWith('[RCW ')) return undefined;
  return 'group';
}
