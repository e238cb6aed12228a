/**
 * The preload: exposes the contract to the sandboxed renderer as `window.profiler`, nothing else
 * (never ipcRenderer). Each method is a one-line invoke of its `profiler:<name>` channel; events
 * are wrapped so the IpcRendererEvent never reaches page code. No logic lives here.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { channelOf, type BridgeApi, type ProfilerEvent, type ProfilerEvents } from '../shared/contract.js';

const invoke =
  (name: string) =>
  (...args: unknown[]): Promise<never> =>
    ipcRenderer.invoke(channelOf(name), ...args) as Promise<never>;

export const bridge = {
  appInfo: invoke('appInfo'),
  listProcesses: invoke('listProcesses'),
  startRecording: invoke('startRecording'),
  stopRecording: invoke('stopRecording'),
  startWatch: invoke('startWatch'),
  listCaptures: invoke('listCaptures'),
  captureOf: invoke('captureOf'),
  getRequestSpans: invoke('getRequestSpans'),
  heapSizeAtLastGc: invoke('heapSizeAtLastGc'),
  takeHeapSnapshot: invoke('takeHeapSnapshot'),
  getHeapTypes: invoke('getHeapTypes'),
  getHeapDominators: invoke('getHeapDominators'),
  getHeapPaths: invoke('getHeapPaths'),
  liveHeapAtLastGc: invoke('liveHeapAtLastGc'),
  takeLiveHeapSnapshot: invoke('takeLiveHeapSnapshot'),
  listSnapshotMarks: invoke('listSnapshotMarks'),
  getHeapGrowth: invoke('getHeapGrowth'),
  importTracePath: invoke('importTracePath'),
  uploadChunk: invoke('uploadChunk'),
  importUpload: invoke('importUpload'),
  traceProcesses: invoke('traceProcesses'),
  cancelImport: invoke('cancelImport'),
  pickAndImportTrace: invoke('pickAndImportTrace'),
  openSampleTrace: invoke('openSampleTrace'),
  listSessions: invoke('listSessions'),
  getSessionData: invoke('getSessionData'),
  getRangeSummary: invoke('getRangeSummary'),
  getGcDetail: invoke('getGcDetail'),
  getStackAllocations: invoke('getStackAllocations'),
  getGcWho: invoke('getGcWho'),
  getTableExtras: invoke('getTableExtras'),
  getServerGc: invoke('getServerGc'),
  getHeapBalance: invoke('getHeapBalance'),
  compareSessions: invoke('compareSessions'),
  updateSession: invoke('updateSession'),
  deleteSession: invoke('deleteSession'),
  reimportSession: invoke('reimportSession'),
  exportSession: invoke('exportSession'),
  getFindings: invoke('getFindings'),
  getDiagnosisSettings: invoke('getDiagnosisSettings'),
  setDiagnosisSettings: invoke('setDiagnosisSettings'),
  on<E extends ProfilerEvent>(event: E, cb: (payload: ProfilerEvents[E]) => void): () => void {
    const listener = (_e: unknown, payload: ProfilerEvents[E]): void => cb(payload);
    ipcRenderer.on(channelOf(event), listener);
    return () => ipcRenderer.removeListener(channelOf(event), listener);
  },
} satisfies BridgeApi;

/** Drag-and-drop: the path of a dropped File (Electron no longer exposes File.path). */
const files = { pathOf: (file: File): string => webUtils.getPathForFile(file) };

if (process.contextIsolated) {
  contextBridge.exposeInMainWorld('profiler', bridge);
  contextBridge.exposeInMainWorld('profilerFiles', files);
}
