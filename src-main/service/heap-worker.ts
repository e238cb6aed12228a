/**
 * Worker-thread entry for heap snapshots (heap-jobs.ts): a snapshot's capture (the walk's events
 * parsed as they arrive), its graph, analysis and .gcdump, and the views that read a whole graph.
 * At 12 M objects these are seconds of CPU; on the service's thread they held back every other
 * answer (the app looked hung while a snapshot was analysed). Bundled as dist/heap-worker.mjs.
 */
import { parentPort } from 'node:worker_threads';
import { HeapJobs } from './heap-jobs.js';
import type { HeapReply, HeapRequest } from './heap-host.js';
import { toApiError } from './errors.js';

const jobs = new HeapJobs();

async function answer(r: HeapRequest, post: (m: HeapReply) => void): Promise<void> {
  try {
    let value: unknown;
    switch (r.kind) {
      case 'take':
        value = await jobs.take(r.request, (progress) => post({ id: r.id, progress }));
        break;
      case 'summary':
        value = await jobs.summary(r.file, r.untypedObjects);
        break;
      case 'dominators':
        value = await jobs.dominators(r.file, r.top, r.depth, r.fanout);
        break;
      case 'paths':
        value = await jobs.paths(r.file, r.typeName, r.top);
        break;
      case 'forget':
        jobs.forget(r.file);
        break;
    }
    post({ id: r.id, ok: true, value });
  } catch (e) {
    post({ id: r.id, ok: false, ...toApiError(e) });
  }
}

parentPort?.on('message', (r: HeapRequest) => void answer(r, (m) => parentPort!.postMessage(m)));
