/**
 * How a process's container reads, the same in `gcscope ps` and the app's home list: its name
 * where the host could read one, else the short id `docker ps` shows (12 hex digits); the full
 * story (engine, image, full id, PID inside) for a tooltip.
 */
import type { DotnetProcess, ContainerEngine, ProcessContainer } from './contract.js';

const ENGINE_NAMES: Record<ContainerEngine, string> = {
  docker: 'Docker',
  podman: 'Podman',
  containerd: 'containerd',
  'cri-o': 'CRI-O',
  kubernetes: 'Kubernetes',
  unknown: '',
};

export function containerShortName(c: ProcessContainer): string {
  return c.name ?? c.id.slice(0, 12);
}

/** `Docker container orders-api (image registry.example/orders:1.4, id f1e2d3c4b5a6…); PID 1 inside`. */
export function containerTitle(p: Pick<DotnetProcess, 'container' | 'innerPid'>): string {
  const c = p.container;
  const inside = p.innerPid !== null ? `PID ${p.innerPid} inside` : '';
  if (c === null) return p.innerPid !== null ? `In a PID namespace of its own (not a container GCScope recognises); ${inside}` : '';
  const engine = ENGINE_NAMES[c.engine];
  const what = `${engine === '' ? 'Container' : `${engine} container`} ${containerShortName(c)}`;
  const details = [...(c.image !== null ? [`image ${c.image}`] : []), `id ${c.id}`, ...(c.podUid !== null ? [`pod ${c.podUid}`] : [])];
  return `${what} (${details.join(', ')})${inside !== '' ? `; ${inside}` : ''}`;
}
