/**
 * Numbered schema migrations. Each entry moves the database from version i to i + 1 (tracked in
 * PRAGMA user_version) and is never edited once released: a schema change is a new entry.
 */
export interface Migration {
  /** What the step changes, for humans. */
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    description: '1: sessions, one row per GC, per-heap detail, allocation by type',
    sql: `
CREATE TABLE sessions (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('import', 'record')),
  -- recording: being written; complete; incomplete: the trace ended early (status_reason says
  -- where); interrupted: the recorder stopped without finishing (recovered from its raw trace)
  status TEXT NOT NULL CHECK (status IN ('recording', 'complete', 'incomplete', 'interrupted', 'failed')),
  status_reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  trace_path TEXT,
  file_size INTEGER,
  file_fingerprint TEXT,
  format TEXT,
  trace_start_utc TEXT,
  qpc_frequency REAL,
  sync_time_qpc TEXT,
  pointer_size INTEGER,
  process_id INTEGER,
  process_name TEXT,
  command_line TEXT,
  runtime_version TEXT,
  os TEXT,
  arch TEXT,
  cpu_count INTEGER,
  gc_mode TEXT,
  concurrent INTEGER,
  heap_count INTEGER,
  gc_settings TEXT,
  event_count INTEGER NOT NULL DEFAULT 0,
  dropped_events INTEGER NOT NULL DEFAULT 0,
  first_event_msec REAL,
  last_event_msec REAL,
  last_heap_stats_msec REAL,
  has_per_heap_history INTEGER NOT NULL DEFAULT 0,
  has_alloc_ticks INTEGER NOT NULL DEFAULT 0,
  has_pin_events INTEGER NOT NULL DEFAULT 0,
  non_gc_suspensions INTEGER NOT NULL DEFAULT 0,
  undecodable_events INTEGER NOT NULL DEFAULT 0,
  -- the process writing a 'recording' session; a dead one means the session needs recovery
  recorder_pid INTEGER,
  tags TEXT NOT NULL DEFAULT '[]',
  notes TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_fingerprint ON sessions(file_fingerprint);

CREATE TABLE gcs (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  number INTEGER NOT NULL,
  generation INTEGER NOT NULL,
  type INTEGER NOT NULL,
  reason INTEGER NOT NULL,
  gc_generation_name TEXT NOT NULL,
  is_complete INTEGER NOT NULL,
  pause_start_msec REAL NOT NULL,
  start_msec REAL NOT NULL,
  suspend_msec REAL NOT NULL,
  pause_msec REAL NOT NULL,
  duration_msec REAL,
  since_last_restart_msec REAL,
  pause_pct_since_last_gc REAL,
  heap_before_mb REAL,
  heap_after_mb REAL,
  heap_peak_mb REAL,
  promoted_mb REAL,
  alloc_mb REAL,
  alloc_rate_mb_sec REAL,
  gen0_alloc_mb REAL,
  loh_alloc_mb REAL,
  poh_alloc_mb REAL,
  gen0_size_after_mb REAL,
  gen1_size_after_mb REAL,
  gen2_size_after_mb REAL,
  loh_size_after_mb REAL,
  poh_size_after_mb REAL,
  gen0_size_before_mb REAL,
  gen1_size_before_mb REAL,
  gen2_size_before_mb REAL,
  loh_size_before_mb REAL,
  poh_size_before_mb REAL,
  gen0_promoted_mb REAL,
  gen1_promoted_mb REAL,
  gen2_promoted_mb REAL,
  loh_promoted_mb REAL,
  poh_promoted_mb REAL,
  gen0_survival_pct REAL,
  gen1_survival_pct REAL,
  gen2_survival_pct REAL,
  loh_survival_pct REAL,
  poh_survival_pct REAL,
  gen0_frag_pct REAL,
  gen1_frag_pct REAL,
  gen2_frag_pct REAL,
  loh_frag_pct REAL,
  poh_frag_pct REAL,
  gen0_frag_mb REAL,
  gen1_frag_mb REAL,
  gen2_frag_mb REAL,
  loh_frag_mb REAL,
  poh_frag_mb REAL,
  gen0_budget_mb REAL,
  gen1_budget_mb REAL,
  gen2_budget_mb REAL,
  loh_budget_mb REAL,
  poh_budget_mb REAL,
  finalization_promoted_mb REAL,
  finalization_promoted_count INTEGER,
  pinned_object_count INTEGER,
  gc_handle_count INTEGER,
  pinned_object_bytes INTEGER,
  pinned_object_pct REAL,
  heap_count INTEGER,
  bgc_final_pause_msec REAL,
  compacted INTEGER,
  global_mechanisms INTEGER,
  pause_mode INTEGER,
  memory_load_pct INTEGER,
  condemn_reasons0 INTEGER,
  condemn_reasons1 INTEGER,
  committed_before_mb REAL,
  committed_after_mb REAL,
  finalizers_queued INTEGER,
  PRIMARY KEY (session_id, idx)
) WITHOUT ROWID;
CREATE INDEX gcs_time ON gcs(session_id, pause_start_msec);

-- Server GC detail: one row per heap per GC; gens is JSON [[sizeBefore, freeListBefore,
-- freeObjBefore, sizeAfter, freeListAfter, freeObjAfter, in, pinnedSurv, nonPinnedSurv,
-- newAllocation] x generations].
CREATE TABLE gc_heaps (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  gc_idx INTEGER NOT NULL,
  heap INTEGER NOT NULL,
  condemn_reasons0 INTEGER,
  condemn_reasons1 INTEGER,
  compact_mechanisms INTEGER,
  expand_mechanisms INTEGER,
  free_list_allocated INTEGER,
  free_list_rejected INTEGER,
  end_of_seg_allocated INTEGER,
  condemned_allocated INTEGER,
  pinned_allocated INTEGER,
  extra_gen0_commit INTEGER,
  gens TEXT NOT NULL,
  PRIMARY KEY (session_id, gc_idx, heap)
) WITHOUT ROWID;

-- AllocationTick totals per type (verbose traces): ticks and bytes.
CREATE TABLE alloc_types (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  type_name TEXT NOT NULL,
  kind INTEGER NOT NULL,
  ticks INTEGER NOT NULL,
  bytes REAL NOT NULL,
  PRIMARY KEY (session_id, type_name, kind)
) WITHOUT ROWID;
`,
  },
  {
    description: '2: per-session column snapshots, so a large session opens without re-reading every row',
    sql: `
-- One BLOB per gcs column per completed session: little-endian float64 values in idx order,
-- NaN for NULL. A derived cache: dropped on re-import and ignored when gc_count no longer
-- matches the session's rows.
CREATE TABLE gc_columns (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  gc_count INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (session_id, name)
) WITHOUT ROWID;

-- Session lists show incomplete-GC counts and the longest pause per session: answered from this
-- index instead of a scan of every GC row (32 ms per session at 100 000 GCs).
CREATE INDEX gcs_complete_pause ON gcs(session_id, is_complete, pause_msec);
`,
  },
  {
    description: '3: survival and movement per GC (GCBulkSurvivingObjectRanges / GCBulkMovedObjectRanges)',
    sql: `
ALTER TABLE gcs ADD COLUMN survived_mb REAL;
ALTER TABLE gcs ADD COLUMN survived_ranges INTEGER;
ALTER TABLE gcs ADD COLUMN moved_mb REAL;
ALTER TABLE gcs ADD COLUMN moved_ranges INTEGER;
ALTER TABLE gcs ADD COLUMN relocated_mb REAL;
-- Addresses as REAL: exact below 2^53, which covers every user-mode address.
ALTER TABLE gcs ADD COLUMN range_low_address REAL;
ALTER TABLE gcs ADD COLUMN range_high_address REAL;
`,
  },
  {
    description: '4: DATAS / Server GC: dynamic events per GC, heap-count change pauses, per-heap mark by root kind',
    sql: `
-- GCDynamicEvent sub-events (SizeAdaptationSample/Tuning/FullGCTuning, HeapCountSample/Tuning,
-- raw unknown ones) in arrival order, with the GC they were attached to; and the pauses of DATAS
-- heap-count changes outside any GC (name 'SuspendForGCPrep', gc_* = the GC before). data is the
-- decoded fields as JSON.
CREATE TABLE gc_dynamic_events (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  gc_idx INTEGER,
  gc_number INTEGER,
  time_msec REAL NOT NULL,
  name TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
-- GCMarkWithType per heap: JSON {"bytes": [...], "msec": [...]} indexed by root kind.
ALTER TABLE gc_heaps ADD COLUMN mark TEXT;
-- Dynamic events kept as raw bytes (unknown name, or too short for its layout): JSON {name: count}.
ALTER TABLE sessions ADD COLUMN raw_dynamic_events TEXT;
`,
  },
  {
    description: '5: LOH allocation waits during background GCs (private BGCAllocWaitBegin/End)',
    sql: `
-- Per background GC: the longest LOH allocation wait, the waits' total (ms) and their count;
-- NULL for other GCs and where the trace lacks the private provider.
ALTER TABLE gcs ADD COLUMN loh_wait_max_msec REAL;
ALTER TABLE gcs ADD COLUMN loh_wait_total_msec REAL;
ALTER TABLE gcs ADD COLUMN loh_wait_count INTEGER;
`,
  },
  {
    description: '6: call stacks and allocation samples (issue 14): deduplicated stacks and frames, AllocationTick samples, GC/Triggered events',
    sql: `
-- Each distinct return address once per session, with the method it resolved to (NULL: none).
-- Names are written as the methods become known and again when the session ends (the rundown).
CREATE TABLE stack_frames (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  frame_id INTEGER NOT NULL,
  address REAL NOT NULL,
  name TEXT,
  PRIMARY KEY (session_id, frame_id)
) WITHOUT ROWID;
-- Each distinct stack once: frame ids as little-endian int32, innermost first. Stack 0 (none) is not stored.
CREATE TABLE stacks (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  stack_id INTEGER NOT NULL,
  frames BLOB NOT NULL,
  PRIMARY KEY (session_id, stack_id)
) WITHOUT ROWID;
-- GC/AllocationTick samples in time order, in chunks (one per write batch) of n samples stored as
-- columns, little-endian: float64 time_msec[n], float64 amount[n] (AllocationAmount64),
-- float64 object_size[n] (V4 ObjectSize or 0), int32 type_id[n], int32 stack_id[n], uint8 kind[n]
-- (0 small, 1 large, 2 pinned). A row per sample cost ~30 bytes and a second to read back at
-- 100,000 samples; chunks are read in one pass.
CREATE TABLE alloc_ticks (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  chunk INTEGER NOT NULL,
  n INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (session_id, chunk)
) WITHOUT ROWID;
CREATE TABLE alloc_tick_types (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  type_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (session_id, type_id)
) WITHOUT ROWID;
CREATE TABLE gc_triggers (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  time_msec REAL NOT NULL,
  reason INTEGER NOT NULL,
  thread_id INTEGER NOT NULL,
  stack_id INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
-- JSON: AllocationTick version, method ranges known (load events, rundown), whether names are final.
ALTER TABLE sessions ADD COLUMN stack_info TEXT;
`,
  },
  {
    description: '7: flight-recorder captures (gcscope watch): the raw trace cut around a triggering GC, per watch session',
    sql: `
-- One row per capture a watch wrote: which trigger fired on which GC, the trace-time span the
-- file covers, and the session it was imported as (opened like any other; NULL once deleted).
CREATE TABLE captures (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  trigger TEXT NOT NULL,
  detail TEXT NOT NULL,
  gc_number INTEGER NOT NULL,
  gc_start_msec REAL NOT NULL,
  gc_end_msec REAL NOT NULL,
  from_msec REAL,
  to_msec REAL,
  path TEXT NOT NULL,
  bytes INTEGER,
  verbose_path TEXT,
  capture_session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
  status TEXT NOT NULL
);
CREATE INDEX captures_session ON captures(session_id, gc_start_msec);
`,
  },
  {
    description: '8: allocation-sample chunks stored deflated (encoding 1); 0 is the raw column layout of migration 6',
    sql: `
-- 0: data is migration 6's columns as they are; 1: the same bytes compressed with raw deflate.
-- A gc-verbose trace's samples were 41 % of its size in the database (33 bytes per sample);
-- deflated they take about a fifth of that.
ALTER TABLE alloc_ticks ADD COLUMN encoding INTEGER NOT NULL DEFAULT 0;
`,
  },
  {
    description: '9: alloc_types dropped: allocation by type comes from the AllocationTick samples of migration 6',
    sql: `
-- Migration 1's AllocationTick totals per type were a second allocation path beside the samples
-- (alloc_ticks), and no view read them (issue 36). IF EXISTS: the step stands on its own,
-- whatever steps come before or after it.
DROP TABLE IF EXISTS alloc_types;
`,
  },
  {
    description: '10: sessions carry a kind (every session before it is a GC recording)',
    sql: `
-- What a session holds: 'gc' (GC rows, stacks, allocation samples) for every existing row and
-- every session GCScope writes today; later kinds (heap snapshots, …) get their own name. No CHECK
-- on the names: a kind added later needs no schema change, so a database holding one still opens
-- in this version, which lists such a session by its kind's name. Touches only this column, so it
-- does not depend on its place among the migrations.
ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'gc';
`,
  },
  {
    description: '11: the objects each GC pinned, by type (PinObjectAtGCTime TypeName), for the GC detail and the pinning finding',
    sql: `
-- Per GC: distinct objects pinned of each type and their bytes (issue 39: who is pinned). The
-- events are one per pinned object per GC (millions in a gc-verbose trace); their per-GC, per-type
-- counts are what is kept. Written with the GC's row; IF NOT EXISTS: the step stands on its own.
CREATE TABLE IF NOT EXISTS gc_pinned_types (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  gc_idx INTEGER NOT NULL,
  type_name TEXT NOT NULL,
  objects INTEGER NOT NULL,
  bytes REAL NOT NULL,
  PRIMARY KEY (session_id, gc_idx, type_name)
) WITHOUT ROWID;
`,
  },
  {
    description: '12: request spans and GC pause intervals (issue 42: which requests the GC delayed)',
    sql: `
-- Each request a recording or import saw (an EventSource's Start/Stop pair: requests/spans.ts),
-- ms on the trace's clock, and the group it belongs to (provider/stem, or an Activity source).
CREATE TABLE request_spans (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  start_msec REAL NOT NULL,
  duration_msec REAL NOT NULL,
  grp TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
-- Every GC pause as an interval (suspension start to restart end): a background GC has several,
-- and its concurrent phase none. What request latency is split against.
CREATE TABLE gc_pause_intervals (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  start_msec REAL NOT NULL,
  end_msec REAL NOT NULL,
  gc_number INTEGER NOT NULL,
  generation INTEGER NOT NULL,
  type INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
`,
  },
  {
    description: '13: heap snapshots (sessions of kind heap): the .gcdump file and its totals',
    sql: `
-- A heap snapshot is a session of kind 'heap' (issue 38). Its graph lives in a .gcdump file (the
-- format dotnet-gcdump, PerfView and Visual Studio read), named here; the row keeps the totals a
-- list shows without opening the file. The file is not deleted with the row (it may be the user's).
CREATE TABLE IF NOT EXISTS heap_snapshots (
  session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  file TEXT NOT NULL,
  objects INTEGER NOT NULL,
  bytes REAL NOT NULL,
  refs INTEGER NOT NULL,
  gc_number INTEGER,
  untyped_objects INTEGER NOT NULL DEFAULT 0,
  walk_ms REAL,
  heap_at_last_gc REAL
);
`,
  },
  {
    description: '14: heap snapshots taken from a live recording: the recording, the induced GC and its time there',
    sql: `
-- A snapshot taken while a recording of the same process ran (issue 38) is a mark on that
-- recording's time axis at its induced gen2 GC. The link keeps the GC's number (the runtime's
-- count, as the recording's GC rows have it) and its pause start on the recording's clock (ms
-- since its trace began; NULL until the recording has that GC), so a recording reviewed later
-- shows the same marks. Deleting either session deletes the link.
CREATE TABLE IF NOT EXISTS heap_snapshot_links (
  snapshot_session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  recording_session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  gc_number INTEGER,
  at_msec REAL
);
CREATE INDEX IF NOT EXISTS heap_snapshot_links_by_recording ON heap_snapshot_links (recording_session_id);
`,
  },
];
