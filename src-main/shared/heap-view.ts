/**
 * What the app's heap snapshot views receive (issue 38): the type table (with a diff's deltas), the
 * biggest retainers and paths to roots. Types only; shared with the renderer.
 */

export interface HeapTypeRowView {
  /** As people write it (`Dictionary<int, Customer>`). */
  name: string;
  fullName: string;
  /** The module's file name (`System.Private.CoreLib.dll`). */
  module: string;
  count: number;
  bytes: number;
  retainedBytes: number;
  /** With a diff: this snapshot minus the other one. */
  countDelta?: number;
  bytesDelta?: number;
  retainedBytesDelta?: number;
  /** With a diff: the type is not in the other snapshot (new) / only in it (gone). */
  isNew?: boolean;
  isGone?: boolean;
}

export interface HeapSnapshotRef {
  sessionId: number;
  name: string;
  /** ISO-8601, when the heap was walked. */
  takenAt: string | null;
}

export interface HeapSummaryView {
  sessionId: number;
  objects: number;
  bytes: number;
  references: number;
  /** Objects no root reaches (frozen literals, runtime types): they retain nothing. */
  unreachable: number;
  untypedObjects: number;
  heapAtLastGcBytes: number | null;
  processId: number | null;
  processName: string | null;
  takenAt: string | null;
  file: string;
  /** Other snapshots of the same process (pid), to diff against, oldest first. */
  others: HeapSnapshotRef[];
}

export type HeapTypeSort = 'retained' | 'bytes' | 'count' | 'name' | 'growth';

export interface HeapTypesQuery {
  /** Only types whose name contains this (case-insensitive). */
  search: string | null;
  /** Only types of this module (file name). */
  module: string | null;
  sort: HeapTypeSort;
  /** Diff against this snapshot: rows carry this one minus that one. */
  diffWith: number | null;
  limit: number;
}

export interface HeapTypesView {
  summary: HeapSummaryView;
  rows: HeapTypeRowView[];
  /** Rows matching the search and module before the limit. */
  matching: number;
  /** Every module with objects, for the module filter. */
  modules: string[];
  /** With a diff: the other snapshot's totals. */
  diffBase: { sessionId: number; name: string; objects: number; bytes: number } | null;
}

export interface HeapRetainerView {
  name: string;
  bytes: number;
  retainedBytes: number;
  address?: string;
  children: HeapRetainerView[];
}

export interface HeapPathView {
  /** How many instances of the type are held by the same chain of types. */
  instances: number;
  /** From the root (its name says its kind) to an instance. */
  nodes: { name: string; bytes: number; retainedBytes: number }[];
}

/** A snapshot being taken (the 'heap-snapshot-progress' event): the walk's counts so far, then the steps after it. */
export interface HeapSnapshotProgress {
  pid: number;
  /** 'walking' while the runtime writes the heap; then the graph is built, analysed and written. */
  phase: 'walking' | 'building' | 'analysing' | 'writing';
  objects: number;
  bytes: number;
}

export interface HeapSnapshotTaken {
  sessionId: number;
  objects: number;
  bytes: number;
}
