/**
 * App-wide state: which screen is shown, the app's info, running imports and messages. One
 * instance, shared by every view (docs/ui.md: selection and state are shared, never duplicated).
 */
import type { AppInfo, CompareTarget, ImportProgress, TraceSource } from '../../src-main/shared/contract';
import type { DotNetProcessInfo } from '../../src-main/shared/trace-process';
import { api, errorMessage, on, pathOfDroppedFile } from '../lib/api';

export type Route = { name: 'home' } | { name: 'library' } | { name: 'session'; sessionId: number } | { name: 'compare'; a: CompareTarget; b: CompareTarget };

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

export interface ImportJob {
  jobId: string;
  label: string;
  fileBytes: number;
  fileSize: number;
}

/** A machine-wide trace's .NET processes shown in the process picker, until the user answers. */
export interface ProcessChoice {
  fileName: string;
  /** The processes with GCs, most first. */
  processes: DotNetProcessInfo[];
  /** .NET processes that ran no GC (not offered). */
  withoutGcs: number;
  answer(pids: number[] | null): void;
}

/** What a heap snapshot opens on when a link (the growing-live-set finding's) opens it: its Diff against another snapshot, or a type's paths to root. */
export type HeapIntent = { sessionId: number; tab: 'diff'; diffWith: number } | { sessionId: number; tab: 'paths'; type: string };

class AppState {
  route = $state<Route>({ name: 'home' });
  /** Taken (and cleared) by the heap snapshot view it names. */
  heapIntent = $state<HeapIntent | null>(null);
  /** The process picker's question, while it is open. */
  processChoice = $state<ProcessChoice | undefined>(undefined);
  info = $state<AppInfo | undefined>(undefined);
  toasts = $state<Toast[]>([]);
  imports = $state<ImportJob[]>([]);
  private nextToast = 1;

  constructor() {
    on('import-progress', (p) => this.onImportProgress(p));
    on('open-session', (e) => this.openSession(e.sessionId));
    // Deep links: #/session/12, #/library (kept in sync with the route, so reload keeps the view).
    this.route = parseHash(location.hash);
    window.addEventListener('hashchange', () => (this.route = parseHash(location.hash)));
  }

  async load(): Promise<void> {
    try {
      this.info = await api.appInfo();
    } catch (e) {
      this.error(errorMessage(e));
    }
  }

  go(r: Route): void {
    this.route = r;
    const h =
      r.name === 'session'
        ? `#/session/${r.sessionId}`
        : r.name === 'compare'
          ? `#/compare/${targetHash(r.a)}/${targetHash(r.b)}`
          : r.name === 'library'
            ? '#/library'
            : '#/';
    // pushState: the browser's Back returns to the previous view (hashchange brings it back in).
    if (location.hash !== h) history.pushState(null, '', `${location.pathname}${location.search}${h}`);
  }

  openSession(sessionId: number): void {
    this.go({ name: 'session', sessionId });
  }

  /** Opens a heap snapshot on its Diff against `diffWith`, or on a type's paths to root. */
  openHeap(intent: HeapIntent): void {
    this.heapIntent = intent;
    this.openSession(intent.sessionId);
  }

  openCompare(a: CompareTarget, b: CompareTarget): void {
    this.go({ name: 'compare', a, b });
  }

  error(text: string): void {
    const id = this.nextToast++;
    this.toasts = [...this.toasts, { id, kind: 'error', text }];
    setTimeout(() => this.dismiss(id), 12000);
  }

  info_(text: string): void {
    const id = this.nextToast++;
    this.toasts = [...this.toasts, { id, kind: 'info', text }];
    setTimeout(() => this.dismiss(id), 5000);
  }

  dismiss(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }

  trackImport(jobId: string, label: string): void {
    if (!this.imports.some((j) => j.jobId === jobId)) this.imports = [...this.imports, { jobId, label, fileBytes: 0, fileSize: 0 }];
  }

  private onImportProgress(p: ImportProgress): void {
    if (p.done) {
      this.imports = this.imports.filter((j) => j.jobId !== p.jobId);
      if (p.error !== undefined) {
        if (p.error.code === 'duplicate' && p.sessionId !== undefined) {
          this.info_('This trace was imported before: opening that session.');
          this.openSession(p.sessionId);
        } else if (p.error.code !== 'cancelled') this.error(p.error.message);
      } else if (p.sessionId !== undefined) this.openSession(p.sessionId);
      return;
    }
    this.imports = this.imports.map((j) => (j.jobId === p.jobId ? { ...j, fileBytes: p.fileBytes, fileSize: p.fileSize } : j));
  }

  async cancelImport(jobId: string): Promise<void> {
    await api.cancelImport(jobId).catch((e: unknown) => this.error(errorMessage(e)));
  }

  /**
   * Opens a trace file: by path in the desktop app, by upload in a browser. A machine-wide trace
   * (ETW .etl) with several .NET processes with GCs asks which to import first.
   */
  async openFile(file: File): Promise<void> {
    try {
      const path = pathOfDroppedFile(file);
      let jobId: string;
      if (path !== undefined && path !== '') {
        const pids = await this.chooseProcesses(file.name, { path });
        if (pids === null) return;
        jobId = (await api.importTracePath(path, false, ...optional(pids))).jobId;
      } else {
        const id = await upload(file);
        const pids = await this.chooseProcesses(file.name, { uploadId: id, fileName: file.name });
        if (pids === null) return;
        jobId = (await api.importUpload(id, file.name, false, ...optional(pids))).jobId;
      }
      this.trackImport(jobId, file.name);
    } catch (e) {
      this.error(errorMessage(e));
    }
  }

  /**
   * Which processes of the trace to import: undefined when there is nothing to choose (a
   * one-process trace, or one .NET process with GCs: the import takes it), the user's choice from
   * the picker, or null when they cancelled. A file the survey cannot read is imported as it is,
   * so its import says what is wrong with it, as for any file.
   */
  private async chooseProcesses(fileName: string, source: TraceSource): Promise<number[] | null | undefined> {
    let found;
    try {
      found = await api.traceProcesses(source);
    } catch {
      return undefined;
    }
    return this.askProcesses(fileName, found.machineWide, found.processes);
  }

  /** Opens the picker when a machine-wide trace has more than one .NET process with GCs. */
  private askProcesses(fileName: string, machineWide: boolean, all: DotNetProcessInfo[]): Promise<number[] | null | undefined> {
    const processes = all.filter((p) => p.gcCount > 0);
    if (!machineWide || processes.length <= 1) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.processChoice = {
        fileName,
        processes,
        withoutGcs: all.length - processes.length,
        answer: (pids) => {
          this.processChoice = undefined;
          resolve(pids);
        },
      };
    });
  }

  async openSample(): Promise<void> {
    try {
      const r = await api.openSampleTrace();
      if ('sessionId' in r) this.openSession(r.sessionId);
      else this.trackImport(r.jobId, 'sample trace');
    } catch (e) {
      this.error(errorMessage(e));
    }
  }

  async pickFile(): Promise<void> {
    if (this.info?.mode !== 'desktop') {
      document.getElementById('open-trace-input')?.click();
      return;
    }
    try {
      const r = await api.pickAndImportTrace();
      if (r === null) return;
      if ('choose' in r) {
        const c = r.choose;
        const pids = await this.askProcesses(c.fileName, c.machineWide, c.processes);
        if (pids === null) return;
        this.trackImport((await api.importTracePath(c.path, false, ...optional(pids))).jobId, c.fileName);
      } else this.trackImport(r.jobId, 'trace');
    } catch (e) {
      this.error(errorMessage(e));
    }
  }
}

/** A comparison side in the URL: `12`, or `12@30-90` for seconds 30 to 90 of the trace (either end may be empty). */
function targetHash(t: CompareTarget): string {
  if (t.fromMSec === null && t.toMSec === null) return String(t.sessionId);
  const s = (v: number | null): string => (v === null ? '' : String(v / 1000));
  return `${t.sessionId}@${s(t.fromMSec)}-${s(t.toMSec)}`;
}

function parseTarget(text: string): CompareTarget {
  const m = /^(\d+)(?:@([\d.]*)-([\d.]*))?$/.exec(text)!;
  const ms = (v: string | undefined): number | null => (v === undefined || v === '' ? null : Number(v) * 1000);
  return { sessionId: Number(m[1]), fromMSec: ms(m[2]), toMSec: ms(m[3]) };
}

/** The view a location hash names (deep links; lib/prefetch.ts reads the session ones before mount). */
export function parseHash(h: string): Route {
  const m = /^#\/session\/(\d+)$/.exec(h);
  if (m !== null) return { name: 'session', sessionId: Number(m[1]) };
  const c = /^#\/compare\/(\d+(?:@[\d.]*-[\d.]*)?)\/(\d+(?:@[\d.]*-[\d.]*)?)$/.exec(h);
  if (c !== null) return { name: 'compare', a: parseTarget(c[1]!), b: parseTarget(c[2]!) };
  return h === '#/library' ? { name: 'library' } : { name: 'home' };
}

const CHUNK = 2 * 1024 * 1024;

/** `processIds` as the import's optional last argument: none when there was nothing to choose. */
function optional(pids: number[] | undefined): [] | [number[]] {
  return pids === undefined ? [] : [pids];
}

/** Sends the file in chunks; returns the upload's id for importUpload. */
async function upload(file: File): Promise<string> {
  const id = `up-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  for (let off = 0; off < file.size; off += CHUNK) {
    const buf = new Uint8Array(await file.slice(off, off + CHUNK).arrayBuffer());
    let s = '';
    for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode.apply(null, buf.subarray(i, i + 0x8000) as unknown as number[]);
    await api.uploadChunk(id, off, btoa(s));
  }
  return id;
}

export const app = new AppState();
