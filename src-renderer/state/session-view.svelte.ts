/**
 * The open session: its columnar data (growing while live), the shared time range and selection
 * every chart and the table follow, table filters and sort, the summary of the selected range,
 * and the selected GC's detail. Chart data lives in $state.raw and is reassigned, never mutated
 * (typed arrays are not proxied): a live batch appends to growable columns (growable-series.ts)
 * and `series` becomes a new set of views on them, so a batch costs the batch, not the session.
 */
import type { GcDetail, RangeSummary, TableExtraColumn, TableExtras } from '../../src-main/shared/contract';
import { seriesFromRecords, type GcSeries, type LiveBatch } from '../../src-main/shared/gc-series';
import type { SessionInfo } from '../../src-main/shared/session';
import { tick } from 'svelte';
import { benchMeasures } from '../lib/bench';
import { api, errorMessage, on, ProfilerError } from '../lib/api';
import { takePrefetched } from '../lib/prefetch';
import { app } from './app.svelte';
import { sessions } from './lists.svelte';
import { isFilterActive, noFilter } from '../../src-main/shared/gc-filter';
import { GrowableSeries } from './growable-series';
import { lowerBound } from '../../src-main/shared/sorted';
import { clampRange } from './time-window';
import { computeRows, filterMask, SeriesIndex, type SortKey, type TableFilter } from './table-rows';

export type { SortKey, TableFilter };

const emptySeries = (): GcSeries => seriesFromRecords([]);

export class SessionView {
  sessionId = $state(0);
  session = $state<SessionInfo | undefined>(undefined);
  private columns = new GrowableSeries();
  series = $state.raw<GcSeries>(emptySeries());
  /**
   * The origin of every time this view shows — the lanes' axis, the table's Start, the detail,
   * the range label, the hover line, the findings' windows: the trace's start (its sync time),
   * which stored times count from, so 0. The CLI's printed times and `--range`, the reports, a
   * watch's captures, TraceEvent's and PerfView's "MSec" count from there too (issue 39: the
   * view counted from the session's first event, and a range read off it selected other GCs
   * in the CLI).
   */
  readonly t0 = 0;
  /** Where the session's GCs and events begin (ms since the trace's start): the left end of the whole-session window. */
  startMSec = $state(0);
  endMSec = $state(0);
  live = $state(false);
  /** The recording ended in this view and its stored session is being read back (its row may still say "recording"). */
  finishing = $state(false);
  liveEvents = $state(0);
  liveNowMSec = $state<number | null>(null);
  followLive = $state(true);
  loading = $state(true);
  loadError = $state<string | undefined>(undefined);
  /** Selected time range in ms since sync; null = everything. */
  range = $state<{ from: number; to: number } | null>(null);
  summary = $state<RangeSummary | undefined>(undefined);
  /** Optional table columns the user turned on (a view preference, kept across sessions). */
  extraColumns = $state<TableExtraColumn[]>([]);
  /** Their values, fetched when first shown (and again while a live session grows). */
  extras = $state.raw<TableExtras | undefined>(undefined);
  private extrasLoading = false;
  private extrasLoadedAt = 0;
  selected = $state<number | null>(null);
  /** The request picked in the Requests lane or in a GC's list of the requests it paused, by its seq (issue 42). */
  pickedRequest = $state<number | null>(null);
  detail = $state<GcDetail | undefined>(undefined);
  detailError = $state<string | undefined>(undefined);
  /** The open session's filters (each session keeps its own: see open()). */
  filter = $state<TableFilter>(noFilter());
  /** Filters of the other sessions opened in this window, restored when one is opened again. */
  private readonly filtersBySession = new Map<number, TableFilter>();
  sortKey = $state<SortKey>('time');
  sortDesc = $state(true);
  private unsubscribe: (() => void) | undefined;
  private summaryTimer: ReturnType<typeof setTimeout> | undefined;

  filterActive = $derived(isFilterActive(this.filter));
  /**
   * Per-GC filter mask shared with the charts (ownership contract with charts-live): index = GC
   * index in `series`, 1 = passes the active filters; null = no filter active. Charts dim GCs
   * whose mask is 0; the table hides them; the tiles summarise the others (service side).
   */
  filterMask = $derived(filterMask(this.series, this.filter));
  /** Kept as the series grows (not reactive itself: read through `series`). */
  private readonly index = new SeriesIndex();
  /** The series' incremental facts (default row order, reasons, columns with values), synced to `series`. */
  get seriesIndex(): SeriesIndex {
    const moved = this.columns.rewrittenSince(this.indexSeq);
    this.indexSeq = this.columns.seq;
    if (moved !== null) this.index.truncate(moved);
    return this.index.sync(this.series);
  }
  private indexSeq = 0;
  /**
   * Counts the times the series was replaced whole (a session opened, its data loaded) rather
   * than grown: what was built from the old one must be built again, even for the same session
   * (reopened, its GCs at the same times).
   */
  seriesLoads = 0;
  /** The series' insertion counter (GrowableSeries.seq) and `rewrittenSince`, for the lanes' incremental state. */
  get seriesSeq(): number {
    return this.columns.seq;
  }
  seriesRewrittenSince(seq: number): number | null {
    return this.columns.rewrittenSince(seq);
  }
  /**
   * Table rows: series indexes after range, filters and sort. The default view (no range or
   * filter, by time or number in GC order) is kept as GCs arrive, so a live batch costs its GCs.
   */
  rows = $derived.by(() => {
    const x = this.seriesIndex;
    const k = this.sortKey;
    if (this.range === null && this.filterMask === null && ((k === 'time' && x.timeIncreasing) || (k === 'number' && x.numberIncreasing)))
      return x.inOrder(this.sortDesc);
    return computeRows(this.series, this.range, this.filter, this.sortKey, this.sortDesc, this.filterMask, this.sortExtra);
  });
  /** Values of the optional column sorted by, when the sort is on one. */
  private sortExtra = $derived.by(() => {
    const k = this.sortKey;
    return this.extras !== undefined && k in this.extras.columns ? this.extras.columns[k as TableExtraColumn] : undefined;
  });
  /** Rows the tiles leave out: incomplete GCs (their pause or sizes are unknown). */
  incompleteRows = $derived.by(() => {
    if (this.range === null && this.filterMask === null) return this.seriesIndex.incomplete;
    let n = 0;
    const complete = this.series.complete;
    for (const i of this.rows) if (complete[i] === 0) n++;
    return n;
  });

  async open(sessionId: number): Promise<void> {
    this.close();
    // Filters belong to a session: keep this one's, bring back the next one's (or none).
    if (this.sessionId !== 0) this.filtersBySession.set(this.sessionId, $state.snapshot(this.filter) as TableFilter);
    this.filter = this.filtersBySession.get(sessionId) ?? noFilter();
    this.sessionId = sessionId;
    // Not the last session's name in the header while this one loads.
    if (this.session?.id !== sessionId) this.session = undefined;
    this.loading = true;
    this.loadError = undefined;
    this.range = null;
    this.selected = null;
    this.pickedRequest = null;
    this.detail = undefined;
    this.dropSeries();
    this.extras = undefined;
    this.sawBackgroundGc = false;
    this.finishing = false;
    // Subscribe before loading so no live batch falls between the snapshot and the stream.
    const early: LiveBatch[] = [];
    let loaded = false;
    this.unsubscribe = on('live-batch', (b) => {
      if (b.sessionId !== this.sessionId) return;
      if (!loaded) early.push(b);
      else {
        // bench/live-ui.ts measures the renderer's work per live batch (the state update and the
        // DOM it changes; the lanes' canvases are measured by their redraw round).
        const start = performance.now();
        this.applyBatch(b);
        if (benchMeasures())
          void tick().then(() => performance.measure('gcscope:batch-applied', { start, end: performance.now(), detail: this.series.length }));
      }
    });
    // Loaded before the app was mounted when the page opened on this session (lib/prefetch.ts).
    const pre = takePrefetched(sessionId);
    if (pre !== undefined) early.push(...pre.batches);
    try {
      if (pre === undefined) performance.mark('gcscope:data-requested');
      const d = await (pre?.data ?? api.getSessionData(sessionId));
      // Marks for bench/ui.ts (time to first chart, split into fetch and render).
      performance.mark('gcscope:data-received');
      this.session = d.session;
      this.replaceSeries(new GrowableSeries(d.series));
      this.startMSec = d.startMSec;
      this.endMSec = d.endMSec;
      this.live = d.live;
      loaded = true;
      for (const b of early) this.applyBatch(b);
      // At once: the tiles filling in (their lines wrap once the numbers are in) would otherwise
      // move the lanes just after their first drawing.
      this.refreshSummary(0);
    } catch (e) {
      this.loadError = errorMessage(e);
      // Not a GC recording (a link opened before the sessions list had it): with the list
      // refreshed, the app shows the session's kind instead of this view (App.svelte).
      if (e instanceof ProfilerError && e.code === 'wrong-session-kind') void sessions.refresh();
    } finally {
      this.loading = false;
    }
  }

  /**
   * Fetches the optional columns when some are shown and the series has GCs they lack (a live
   * session re-fetches at most every 2 s).
   */
  async ensureExtras(): Promise<void> {
    if (this.extraColumns.length === 0 || this.extrasLoading || this.loading) return;
    const have = this.extras?.columns.fragPercent.length ?? -1;
    if (have >= this.series.length && have >= 0) return;
    if (this.extras !== undefined && Date.now() - this.extrasLoadedAt < 2000) return;
    this.extrasLoading = true;
    const id = this.sessionId;
    try {
      const x = await api.getTableExtras(id);
      if (id === this.sessionId) this.extras = x;
      this.extrasLoadedAt = Date.now();
    } catch (e) {
      app.error(errorMessage(e));
    } finally {
      this.extrasLoading = false;
    }
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /**
   * The session view is left: its GCs and numbers are dropped. The view is one object for the
   * whole page, and the next session view is built (and its lanes drawn) before it opens its
   * session: it drew the last session's GCs and tiles for a moment.
   */
  leave(): void {
    this.close();
    this.dropSeries();
    this.loading = true;
  }

  /** No GCs and no summary. */
  private dropSeries(): void {
    this.replaceSeries(new GrowableSeries());
    this.summary = undefined;
  }

  /** The series replaced whole, not grown (see seriesLoads); the index starts over with it. */
  private replaceSeries(columns: GrowableSeries): void {
    this.columns = columns;
    this.seriesLoads++;
    this.index.reset();
    this.indexSeq = 0;
    this.series = columns.view();
  }

  applyBatch(b: LiveBatch): void {
    const before = this.series.length;
    const seq = this.columns.seq;
    // The selected GC by number: a background GC inserted before it moves it up.
    const selectedNumber = this.selected !== null ? this.series.number[this.selected] : undefined;
    const added = this.columns.append(b.gcs);
    if (added > 0) this.series = this.columns.view();
    const moved = this.columns.rewrittenSince(seq);
    if (moved !== null && this.columns.lastInserted) {
      if (selectedNumber !== undefined) this.selected = Math.min(this.series.length - 1, lowerBound(this.series.number, selectedNumber));
      // The optional columns are by index: asked again.
      this.extrasLoadedAt = 0;
    }
    this.liveEvents = b.events;
    this.liveNowMSec = b.nowMSec;
    if (b.nowMSec !== null) this.endMSec = Math.max(this.endMSec, b.nowMSec);
    if (b.state === 'ended') {
      this.live = false;
      void this.reloadInfoUntilEnded();
      // The stored session's own summary (with its last HeapStats), as a reopened session shows it.
      this.refreshSummary();
    } else {
      this.live = true;
      // The whole session's unfiltered summary comes with the batch, kept up to date by the
      // service without re-reading the session; a selected range or an active filter is asked
      // for only when the batch brought GCs inside the range.
      if (this.range === null && !this.filterActive && b.summary !== undefined) {
        clearTimeout(this.summaryTimer);
        // An answer still on its way (asked at open, or before a filter was cleared) is older
        // than this one: it must not put the tiles a batch behind the table.
        this.summarySeq++;
        this.summary = b.summary;
      } else if (added > 0 && (this.range === null || this.range.to >= this.series.time[Math.min(before, moved ?? before)]!)) this.refreshSummary();
    }
    // The GC mode becomes known with the first GC, concurrency with the first background GC.
    const s = this.session;
    // (A background GC proves it on even where the first GC's latency mode said off.)
    if (s !== undefined && added > 0 && s.concurrent !== true && this.columns.lastAddedBackground) this.sawBackgroundGc = true;
    if (s !== undefined && added > 0 && (s.gcMode === null || (s.concurrent !== true && this.sawBackgroundGc))) void this.refreshInfoWhileLive();
  }

  private infoPending = false;
  /** A background GC arrived while the session row did not yet say "concurrent". */
  private sawBackgroundGc = false;

  /**
   * While recording: re-read the session row at most once per second, until it says what the
   * batches showed. The service writes the row after the GC that told it, so one read can come too
   * early, and a background GC that arrives while a read is pending must not be forgotten: the
   * process may run its next one many seconds later.
   */
  private async refreshInfoWhileLive(): Promise<void> {
    if (this.infoPending) return;
    this.infoPending = true;
    try {
      await this.rereadInfo({
        firstAfterMs: 1000,
        everyMs: 1000,
        tries: 10,
        wanted: () => this.live,
        done: (s) => s === undefined || (s.gcMode !== null && (s.concurrent === true || !this.sawBackgroundGc)),
      });
    } finally {
      this.infoPending = false;
    }
  }

  /**
   * Once a recording has ended: the session row until it says how (complete, failed…). Until
   * then the view shows "finishing", not the row's stale "recording" (the row is read after the
   * end arrives, and a busy machine answered that read after the page had shown "recording").
   */
  private async reloadInfoUntilEnded(): Promise<void> {
    const id = this.sessionId;
    this.finishing = true;
    try {
      await this.rereadInfo({
        firstAfterMs: 0,
        everyMs: 250,
        tries: 40,
        wanted: () => id === this.sessionId && !this.live,
        done: (s) => s?.status !== 'recording',
      });
    } finally {
      if (id === this.sessionId) this.finishing = false;
    }
  }

  /** Re-reads the session row (`reloadInfo`) until `done` says it has what was waited for, at most `tries` times, while `wanted`. */
  private async rereadInfo(o: {
    firstAfterMs: number;
    everyMs: number;
    tries: number;
    wanted: () => boolean;
    done: (s: SessionInfo | undefined) => boolean;
  }): Promise<void> {
    for (let tries = 0; tries < o.tries && o.wanted(); tries++) {
      const wait = tries === 0 ? o.firstAfterMs : o.everyMs;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await this.reloadInfo();
      if (o.done(this.session)) return;
    }
  }

  /** The session row only (listSessions), not getSessionData's whole series. */
  private async reloadInfo(): Promise<void> {
    try {
      const s = (await api.listSessions()).find((x) => x.id === this.sessionId);
      if (s !== undefined) this.session = s;
    } catch {
      // keep what we have
    }
  }

  clearFilters(): void {
    this.filter = noFilter();
    this.refreshSummary();
  }

  setRange(r: { from: number; to: number } | null): void {
    this.range = r === null ? null : clampRange(r, this.startMSec, Math.max(this.endMSec, this.startMSec + 1));
    if (r !== null) this.followLive = false;
    this.refreshSummary();
  }

  private summarySeq = 0;

  /** While recording, the newest GC this view has (what the service may count), else null. */
  get liveThrough(): number | null {
    const n = this.series.length;
    return this.live && n > 0 ? this.series.number[n - 1]! : null;
  }

  /** Asks for the tiles' summary after `wait` ms (by default a pause that lets a drag or a burst of batches settle). */
  refreshSummary(wait = 60): void {
    clearTimeout(this.summaryTimer);
    const seq = ++this.summarySeq;
    this.summaryTimer = setTimeout(async () => {
      const r = this.range ?? { from: this.startMSec, to: Math.max(this.endMSec, this.startMSec + 1) };
      try {
        // Live: count only the GCs this view has, so the tiles and the table agree; with
        // filters, only the GCs that pass them (the same predicate as the table's).
        const through = this.liveThrough;
        const f = this.filterActive ? ($state.snapshot(this.filter) as TableFilter) : null;
        const summary =
          f !== null
            ? await api.getRangeSummary(this.sessionId, r.from, r.to, through, f)
            : through !== null
              ? await api.getRangeSummary(this.sessionId, r.from, r.to, through)
              : await api.getRangeSummary(this.sessionId, r.from, r.to);
        // A slower answer for an older range or filter must not overwrite a newer one.
        if (seq === this.summarySeq) this.summary = summary;
      } catch (e) {
        // Asked as the view opens, before its data has answered: a session of another kind is
        // explained in place of this view (see open()), not in an error as well.
        if (!(e instanceof ProfilerError && e.code === 'wrong-session-kind')) app.error(errorMessage(e));
      }
    }, wait);
  }

  async select(index: number | null): Promise<void> {
    this.selected = index;
    this.detail = undefined;
    this.detailError = undefined;
    if (index === null) return;
    try {
      this.detail = await api.getGcDetail(this.sessionId, this.series.index[index]!);
    } catch (e) {
      this.detailError = errorMessage(e);
    }
  }

  sortBy(k: SortKey): void {
    if (this.sortKey === k) this.sortDesc = !this.sortDesc;
    else {
      this.sortKey = k;
      this.sortDesc = k !== 'number' && k !== 'time';
    }
  }

  async stop(): Promise<void> {
    try {
      await api.stopRecording(this.sessionId);
    } catch (e) {
      app.error(errorMessage(e));
    }
  }
}

export const view = new SessionView();
