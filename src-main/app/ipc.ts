/** IPC handlers: one per contract method, sender-checked, arguments validated by dispatch(). */
import { ipcMain, type WebContents } from 'electron';
import { channelOf, PROFILER_EVENTS, PROFILER_METHODS, type ProfilerEvent } from '../shared/contract.js';
import { dispatch } from '../service/dispatch.js';
import type { ProfilerService } from '../service/profiler-service.js';
import { isTrustedSender } from './security.js';

export function registerIpc(service: ProfilerService, main: () => WebContents | undefined): () => void {
  for (const m of PROFILER_METHODS) {
    ipcMain.handle(channelOf(m), (e, ...args: unknown[]) => {
      if (!isTrustedSender(e, main())) return { ok: false, error: { code: 'forbidden', message: 'This caller may not use GCScope.' } };
      return dispatch(service, m, args);
    });
  }
  const forwards = PROFILER_EVENTS.map((ev: ProfilerEvent) => {
    const f = (payload: unknown): void => main()?.send(channelOf(ev), payload);
    service.events.on(ev, f);
    return [ev, f] as const;
  });
  return () => {
    for (const m of PROFILER_METHODS) ipcMain.removeHandler(channelOf(m));
    for (const [ev, f] of forwards) service.events.off(ev, f);
  };
}
