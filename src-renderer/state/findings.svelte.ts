/**
 * The Findings panel's state: the open session's diagnosis (for the selected range, or the whole
 * session), re-asked when the range changes and, while recording, as GCs arrive — at most once a
 * second — plus the diagnosis settings (thresholds) the user can change. Which finding's GCs the
 * table shows is the session view's own filter (`filter.gcs`), never a copy here.
 */
import type { DiagnosisSettings } from '../../src-main/shared/contract';
import type { Diagnosis, DiagnosisOverrides, Finding } from '../../src-main/shared/finding';
import { api, errorMessage } from '../lib/api';
import { noteHeight, reservedHeight } from '../lib/height-reserve';
import type { SessionView } from './session-view.svelte';

/** Live sessions: the findings are asked for at most this often. */
export const LIVE_REFRESH_MS = 1000;

export class FindingsState {
  diagnosis = $state.raw<Diagnosis | undefined>(undefined);
  error = $state<string | undefined>(undefined);
  settings = $state.raw<DiagnosisSettings | undefined>(undefined);
  settingsError = $state<string | undefined>(undefined);
  /** The finding whose GCs the table was last set to show. */
  picked = $state<string | null>(null);
  /**
   * The panel's height with each session's whole-session findings: reserved while "diagnosing…"
   * (lib/height-reserve.ts; a session not seen yet gets the last height seen).
   */
  readonly heights = new Map<number, number>();
  private sessionId = 0;
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastAsked = 0;

  /**
   * Asks for the findings of the view's session and range. A finished session asks at once (a
   * range drag settles first: 150 ms); a live one at most once per LIVE_REFRESH_MS.
   */
  request(view: SessionView): void {
    const id = view.sessionId;
    if (id === 0) return;
    if (id !== this.sessionId) {
      this.sessionId = id;
      this.diagnosis = undefined;
      this.error = undefined;
      this.picked = null;
      this.lastAsked = 0;
    }
    const range = view.range === null ? null : { from: view.range.from, to: view.range.to };
    clearTimeout(this.timer);
    // The first ask for a session goes at once: there is no drag to let settle, and the panel's
    // answer is what moves the lanes.
    const wait = view.live ? Math.max(0, this.lastAsked + LIVE_REFRESH_MS - Date.now()) : this.lastAsked === 0 ? 0 : 150;
    this.timer = setTimeout(() => void this.load(id, range, view), wait);
  }

  private async load(id: number, range: { from: number; to: number } | null, view: SessionView): Promise<void> {
    const seq = ++this.seq;
    this.lastAsked = Date.now();
    try {
      // While recording, only the GCs this view has (read when asking): the findings' count never
      // runs ahead of the header, tiles and table.
      const d = await api.getFindings(id, range?.from ?? null, range?.to ?? null, view.liveThrough);
      // A slower answer for an older range must not overwrite a newer one.
      if (seq === this.seq && id === this.sessionId) {
        this.diagnosis = d;
        this.error = undefined;
      }
    } catch (e) {
      if (seq === this.seq) this.error = errorMessage(e);
    }
  }

  /** Notes the panel's height showing the whole session's findings (see `heights`). */
  noteHeight(sessionId: number, px: number): void {
    this.heights.set(sessionId, px);
    noteHeight('findings', px);
  }

  /** The height to reserve while the session's findings are being worked out (0: none known). */
  reserveFor(sessionId: number): number {
    return this.heights.get(sessionId) ?? reservedHeight('findings');
  }

  stop(): void {
    clearTimeout(this.timer);
    this.sessionId = 0;
  }

  /** Shows exactly this finding's GCs in the table and charts (the table's filter), or all again. */
  pick(view: SessionView, f: Finding | null): void {
    const base = $state.snapshot(view.filter);
    if (f === null || this.isPicked(view, f)) {
      view.filter = { ...base, gcs: null };
      this.picked = null;
    } else {
      view.filter = { ...base, gcs: [...f.evidence.gcs] };
      this.picked = f.id;
      view.select(null);
    }
  }

  isPicked(view: SessionView, f: Finding): boolean {
    return this.picked === f.id && view.filter.gcs !== undefined && view.filter.gcs !== null;
  }

  async loadSettings(): Promise<void> {
    try {
      this.settings = await api.getDiagnosisSettings();
      this.settingsError = undefined;
    } catch (e) {
      this.settingsError = errorMessage(e);
    }
  }

  /** Saves the overrides (empty: every default back) and re-runs the diagnosis. */
  async saveSettings(view: SessionView, overrides: DiagnosisOverrides): Promise<boolean> {
    try {
      this.settings = await api.setDiagnosisSettings(overrides);
      this.settingsError = undefined;
      this.lastAsked = 0;
      this.request(view);
      return true;
    } catch (e) {
      this.settingsError = errorMessage(e);
      return false;
    }
  }
}

export const findings = new FindingsState();
