/**
 * Which container a process runs in, as the host sees it (issue 41):
 * - the container id, from the process's cgroup path (/proc/PID/cgroup). Every engine names the
 *   cgroup after the 64-hex container id, with its own prefix: cgroup v1 and the cgroupfs driver
 *   `/docker/<id>`, `/kubepods/…/pod<uid>/<id>`, `/libpod_parent/libpod-<id>`; v2 and the systemd
 *   driver `…/docker-<id>.scope`, `…/cri-containerd-<id>.scope`, `…/crio-<id>.scope`,
 *   `…/libpod-<id>.scope` (Podman may nest a `/container` cgroup below it);
 * - its name and image where the host can read them: Docker's
 *   `<data-root>/containers/<id>/config.v2.json` (data-root from /etc/docker/daemon.json, default
 *   /var/lib/docker), Podman's `overlay-containers/containers.json` in its storage (root's, or the
 *   rootless user's ~/.local/share/containers/storage), and on a Kubernetes node the kubelet's log
 *   links `/var/log/containers/<pod>_<namespace>_<container>-<id>.log`. Anything absent or
 *   unreadable is skipped: the id alone is still shown.
 * Those files are written by other programs: only a string field of a plausible length is taken from
 * them (checked by hand, not with zod: `gcscope ps` should not load a schema library to read two fields).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerEngine, ProcessContainer } from '../shared/contract.js';

/** A cgroup path segment naming a container: an optional engine prefix, the 64-hex id, an optional `.scope`. */
const SEGMENT_RE = /^(?:(docker|cri-containerd|crio|libpod|nerdctl)-)?([0-9a-f]{64})(?:\.scope)?$/;

const PREFIX_ENGINE: Record<string, ContainerEngine> = {
  docker: 'docker',
  'cri-containerd': 'containerd',
  nerdctl: 'containerd',
  crio: 'cri-o',
  libpod: 'podman',
};

export interface CgroupContainer {
  id: string;
  engine: ContainerEngine;
  /** Set when the path is a Kubernetes pod's (kubepods): the pod's UID. */
  podUid: string | null;
}

/**
 * The container named by the contents of /proc/PID/cgroup (v1: one line per hierarchy; v2: the
 * single `0::` line), or null for a process in no container. The deepest container segment wins.
 */
export function containerFromCgroup(text: string): CgroupContainer | null {
  for (const line of text.split('\n')) {
    // hierarchy-ID:controller-list:cgroup-path — the path may itself hold ':'.
    const parts = line.split(':');
    if (parts.length < 3) continue;
    const path = parts.slice(2).join(':');
    const segs = path.split('/');
    for (let i = segs.length - 1; i >= 0; i--) {
      const m = SEGMENT_RE.exec(segs[i]!);
      if (m === null) continue;
      const kube = /(?:^|\/)kubepods[./]/.test(path + '/');
      const pod = /pod([0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12})/.exec(path);
      let engine: ContainerEngine = m[1] !== undefined ? PREFIX_ENGINE[m[1]]! : segs[i - 1] === 'docker' ? 'docker' : kube ? 'kubernetes' : 'unknown';
      if (kube && engine === 'unknown') engine = 'kubernetes';
      return { id: m[2]!, engine, podUid: pod !== null ? pod[1]!.replace(/_/g, '-') : null };
    }
  }
  return null;
}

export function readCgroupContainer(pid: number | 'self'): CgroupContainer | null {
  try {
    return containerFromCgroup(readFileSync(`/proc/${pid}/cgroup`, 'utf8'));
  } catch {
    return null;
  }
}

/** Where the host keeps what it knows about containers (parameters for tests; the defaults are the engines'). */
export interface ContainerRoots {
  dockerDaemonJson: string;
  dockerRoot: string;
  /** Podman/CRI-O storage roots (root's and, for a rootless container, its user's). */
  podmanRoots: string[];
  kubeLogLinks: string;
  passwd: string;
}

export const DEFAULT_ROOTS: ContainerRoots = {
  dockerDaemonJson: '/etc/docker/daemon.json',
  dockerRoot: '/var/lib/docker',
  podmanRoots: ['/var/lib/containers/storage'],
  kubeLogLinks: '/var/log/containers',
  passwd: '/etc/passwd',
};

/** A string field of an untrusted JSON object, or undefined when absent, not a string, empty or implausibly long. */
function str(o: unknown, key: string): string | undefined {
  if (typeof o !== 'object' || o === null) return undefined;
  const v = (o as Record<string, unknown>)[key];
  return typeof v === 'string' && v.length > 0 && v.length <= 512 ? v : undefined;
}

function readJson(path: string, maxBytes = 4 << 20): unknown {
  const raw = readFileSync(path);
  if (raw.length > maxBytes) throw new Error('too large');
  return JSON.parse(raw.toString('utf8')) as unknown;
}

function dockerDetails(id: string, roots: ContainerRoots): { name: string | null; image: string | null } | null {
  let root = roots.dockerRoot;
  try {
    const dataRoot = str(readJson(roots.dockerDaemonJson, 1 << 20), 'data-root');
    if (dataRoot?.startsWith('/') === true) root = dataRoot;
  } catch {
    // no daemon.json: the default data root
  }
  try {
    const c = readJson(join(root, 'containers', id, 'config.v2.json'));
    const name = str(c, 'Name')?.replace(/^\//, '');
    const image = str(typeof c === 'object' && c !== null ? (c as Record<string, unknown>).Config : undefined, 'Image');
    if (name === undefined && image === undefined) return null;
    return { name: name || null, image: image ?? null };
  } catch {
    return null;
  }
}

/** Home directory of a uid from /etc/passwd (for a rootless Podman's storage). */
function homeOf(uid: number, passwd: string): string | undefined {
  try {
    for (const line of readFileSync(passwd, 'utf8').split('\n')) {
      const f = line.split(':');
      if (f.length >= 6 && Number(f[2]) === uid && f[5]!.startsWith('/')) return f[5];
    }
  } catch {
    // unreadable
  }
  return undefined;
}

function podmanDetails(id: string, roots: ContainerRoots, uid: number | undefined): { name: string | null; image: string | null } | null {
  const storages = [...roots.podmanRoots];
  if (uid !== undefined && uid !== 0) {
    const home = homeOf(uid, roots.passwd);
    if (home !== undefined) storages.push(join(home, '.local/share/containers/storage'));
  }
  for (const s of storages) {
    let list: unknown;
    try {
      list = readJson(join(s, 'overlay-containers', 'containers.json'), 64 << 20);
    } catch {
      continue;
    }
    if (!Array.isArray(list)) continue;
    for (const e of list) {
      if (str(e, 'id') !== id) continue;
      const names = (e as Record<string, unknown>).names;
      let meta: unknown = {};
      try {
        // Podman keeps the image's name and the container's in a JSON string inside the entry.
        const m = str(e, 'metadata') ?? (e as Record<string, unknown>).metadata;
        if (typeof m === 'string' && m.length <= 65536) meta = JSON.parse(m) as unknown;
      } catch {
        // metadata is optional
      }
      const first = Array.isArray(names) ? str({ n: names[0] }, 'n') : undefined;
      return { name: first ?? str(meta, 'name') ?? null, image: str(meta, 'image-name') ?? null };
    }
  }
  return null;
}

/** `<pod>_<namespace>_<container>-<id>.log` in the kubelet's /var/log/containers. */
function kubeDetails(id: string, roots: ContainerRoots): { name: string | null; image: string | null } | null {
  let names: string[];
  try {
    names = readdirSync(roots.kubeLogLinks);
  } catch {
    return null;
  }
  const suffix = `-${id}.log`;
  const n = names.find((x) => x.endsWith(suffix));
  if (n === undefined) return null;
  const m = /^([^_]+)_([^_]+)_(.+)$/.exec(n.slice(0, -suffix.length));
  if (m === null) return null;
  // namespace/pod/container, the way kubectl addresses it.
  return { name: `${m[2]}/${m[1]}/${m[3]}`, image: null };
}

/** The container a process runs in, with whatever name and image the host can read; null when in none. */
export function describeContainer(cg: CgroupContainer, uid: number | undefined, roots: ContainerRoots = DEFAULT_ROOTS): ProcessContainer {
  const details =
    (cg.engine === 'docker' || cg.engine === 'unknown' ? dockerDetails(cg.id, roots) : null) ??
    (cg.engine === 'podman' || cg.engine === 'cri-o' || cg.engine === 'unknown' ? podmanDetails(cg.id, roots, uid) : null) ??
    (cg.podUid !== null || cg.engine === 'containerd' || cg.engine === 'cri-o' || cg.engine === 'kubernetes' ? kubeDetails(cg.id, roots) : null);
  const engine: ContainerEngine = cg.engine === 'unknown' && details !== null ? 'docker' : cg.engine;
  return { id: cg.id, engine, name: details?.name ?? null, image: details?.image ?? null, podUid: cg.podUid };
}

/** The uid a process runs as (the real uid of /proc/PID/status), or undefined. */
export function processUid(pid: number): number | undefined {
  try {
    const m = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

/**
 * The container of `pid` as the list shows it: null for a process in no container, and null too
 * for one in the same container as GCScope itself (run inside a container, every local process
 * would otherwise be labelled with it).
 */
export function containerOf(pid: number, roots: ContainerRoots = DEFAULT_ROOTS): ProcessContainer | null {
  const cg = readCgroupContainer(pid);
  if (cg === null) return null;
  const self = readCgroupContainer('self');
  if (self !== null && self.id === cg.id) return null;
  return describeContainer(cg, processUid(pid), roots);
}
