/**
 * An export's answer delivered as the platform does it: the desktop app has already saved it
 * (where the user chose) and says where; in a browser (`gcscope serve`) the content arrives here
 * and is offered as a download.
 */
import type { ExportFormat, ExportResult, ExportScope } from '../../src-main/shared/contract';
import { api, errorMessage } from './api';
import { app } from '../state/app.svelte';

/** Offers the export for download (browser), or returns the path it was saved to (desktop); null when nothing to say (cancelled). */
export function saveExport(r: ExportResult): string | null {
  if (r.content !== null) {
    const bytes = r.encoding === 'base64' ? Uint8Array.from(atob(r.content), (c) => c.charCodeAt(0)) : new TextEncoder().encode(r.content);
    const url = URL.createObjectURL(new Blob([bytes]));
    const a = document.createElement('a');
    a.href = url;
    a.download = r.fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    return null;
  }
  return r.path;
}

/**
 * A session exported and delivered (saveExport): where it was saved, or what went wrong, said as
 * a toast. What the Sessions page, the session view and a heap snapshot's view each do.
 */
export async function exportAndSave(sessionId: number, format: ExportFormat, scope?: ExportScope): Promise<void> {
  try {
    const path = saveExport(scope === undefined ? await api.exportSession(sessionId, format) : await api.exportSession(sessionId, format, scope));
    if (path !== null) app.info_(`Saved ${path}`);
  } catch (e) {
    app.error(errorMessage(e));
  }
}
