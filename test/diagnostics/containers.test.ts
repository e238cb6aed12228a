/**
 * Which container a process is in, from what the host can read: the container id in each engine's
 * cgroup naming (cgroup v1 and v2, cgroupfs and systemd drivers), and the name and image from
 * Docker's, Podman's and the kubelet's own files — here laid out in a temporary folder as those
 * engines write them (the layouts of Docker's config.v2.json, Podman's containers.json and the
 * kubelet's /var/log/containers links), including files that are missing, broken or hostile.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { containerFromCgroup, describeContainer, type ContainerRoots } from '../../src-main/diagnostics/containers.js';

const ID = 'f1e2d3c4b5a6978877665544332211000ffeeddccbbaa99887766554433221100'.slice(0, 64);
const POD = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('the container a process is in, from /proc/PID/cgroup', () => {
  const cases: [string, string, string, string | null][] = [
    ['Docker, cgroup v1 (cgroupfs driver)', `12:pids:/docker/${ID}\n11:memory:/docker/${ID}\n0::/`, 'docker', null],
    ['Docker, cgroup v2 (systemd driver)', `0::/system.slice/docker-${ID}.scope`, 'docker', null],
    ['Podman as root, cgroup v2', `0::/machine.slice/libpod-${ID}.scope/container`, 'podman', null],
    ['Podman rootless', `0::/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-${ID}.scope`, 'podman', null],
    ['Podman, cgroupfs driver', `0::/libpod_parent/libpod-${ID}`, 'podman', null],
    [
      'Kubernetes with containerd, systemd driver',
      `0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${POD.replace(/-/g, '_')}.slice/cri-containerd-${ID}.scope`,
      'containerd',
      POD,
    ],
    [
      'Kubernetes with CRI-O',
      `0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${POD.replace(/-/g, '_')}.slice/crio-${ID}.scope`,
      'cri-o',
      POD,
    ],
    ['Kubernetes, cgroup v1 cgroupfs driver', `4:memory:/kubepods/burstable/pod${POD}/${ID}\n0::/`, 'kubernetes', POD],
  ];
  for (const [what, text, engine, pod] of cases)
    it(`${what}: the 64-hex id and the engine`, () => {
      expect(containerFromCgroup(text)).toEqual({ id: ID, engine, podUid: pod });
    });

  it('a plain process, a systemd service and a 32-hex cgroup name are in no container', () => {
    expect(containerFromCgroup('0::/user.slice/user-1000.slice/session-2.scope')).toBeNull();
    expect(containerFromCgroup('12:pids:/system.slice/nginx.service\n0::/system.slice/nginx.service')).toBeNull();
    expect(containerFromCgroup('4:memory:/process_api/512072547e00066eabdd609c5959affb\n0::/')).toBeNull();
    expect(containerFromCgroup('')).toBeNull();
  });
});

describe('the container name and image, where the host can read them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gcscope-containers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const roots: ContainerRoots = {
    dockerDaemonJson: join(dir, 'etc-docker', 'daemon.json'),
    dockerRoot: join(dir, 'var-lib-docker'),
    podmanRoots: [join(dir, 'containers-storage')],
    kubeLogLinks: join(dir, 'var-log-containers'),
    passwd: join(dir, 'passwd'),
  };

  it('Docker: Name without its slash and Config.Image from config.v2.json, in the data-root daemon.json names', () => {
    const dataRoot = join(dir, 'docker-data');
    mkdirSync(join(dir, 'etc-docker'), { recursive: true });
    writeFileSync(roots.dockerDaemonJson, JSON.stringify({ 'data-root': dataRoot }));
    mkdirSync(join(dataRoot, 'containers', ID), { recursive: true });
    writeFileSync(
      join(dataRoot, 'containers', ID, 'config.v2.json'),
      JSON.stringify({ ID, Name: '/orders-api', Config: { Image: 'registry.example/orders:1.4', Env: ['A=1'] }, State: { Pid: 4242 } }),
    );
    expect(describeContainer({ id: ID, engine: 'docker', podUid: null }, 0, roots)).toEqual({
      id: ID,
      engine: 'docker',
      name: 'orders-api',
      image: 'registry.example/orders:1.4',
      podUid: null,
    });
  });

  it('Docker without its files (another data root, not readable): the id alone', () => {
    const other = 'a'.repeat(64);
    expect(describeContainer({ id: other, engine: 'docker', podUid: null }, 0, roots)).toEqual({
      id: other,
      engine: 'docker',
      name: null,
      image: null,
      podUid: null,
    });
  });

  it('a broken or hostile config.v2.json gives no name rather than an error or a huge string', () => {
    const bad = 'b'.repeat(64);
    const dataRoot = join(dir, 'docker-data');
    mkdirSync(join(dataRoot, 'containers', bad), { recursive: true });
    writeFileSync(join(dataRoot, 'containers', bad, 'config.v2.json'), '{"Name": "/x", "Config": ');
    expect(describeContainer({ id: bad, engine: 'docker', podUid: null }, 0, roots).name).toBeNull();
    writeFileSync(join(dataRoot, 'containers', bad, 'config.v2.json'), JSON.stringify({ Name: 'n'.repeat(100_000), Config: { Image: 42 } }));
    expect(describeContainer({ id: bad, engine: 'docker', podUid: null }, 0, roots)).toMatchObject({ name: null, image: null });
  });

  it("Podman: the first name and the image-name from containers.json, root's storage and a rootless user's", () => {
    const entry = (id: string, name: string, image: string) => ({
      id,
      names: [name],
      image: 'c'.repeat(64),
      layer: 'd'.repeat(64),
      metadata: JSON.stringify({ 'image-name': image, 'image-id': 'c'.repeat(64), name, 'created-at': 1732800000 }),
      created: '2026-11-28T21:00:00Z',
    });
    mkdirSync(join(dir, 'containers-storage', 'overlay-containers'), { recursive: true });
    writeFileSync(
      join(dir, 'containers-storage', 'overlay-containers', 'containers.json'),
      JSON.stringify([entry(ID, 'billing', 'docker.io/library/billing:2')]),
    );
    expect(describeContainer({ id: ID, engine: 'podman', podUid: null }, 0, roots)).toMatchObject({ name: 'billing', image: 'docker.io/library/billing:2' });

    const rootless = 'e'.repeat(64);
    const home = join(dir, 'home', 'alice');
    writeFileSync(roots.passwd, `root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000::${home}:/bin/bash\n`);
    mkdirSync(join(home, '.local/share/containers/storage/overlay-containers'), { recursive: true });
    writeFileSync(
      join(home, '.local/share/containers/storage/overlay-containers/containers.json'),
      JSON.stringify([entry(rootless, 'dev-api', 'localhost/dev-api:latest')]),
    );
    expect(describeContainer({ id: rootless, engine: 'podman', podUid: null }, 1000, roots)).toMatchObject({
      name: 'dev-api',
      image: 'localhost/dev-api:latest',
    });
    // Another uid does not look in alice's storage.
    expect(describeContainer({ id: rootless, engine: 'podman', podUid: null }, 1001, roots).name).toBeNull();
  });

  it("Kubernetes node: namespace/pod/container from the kubelet's /var/log/containers link", () => {
    mkdirSync(roots.kubeLogLinks, { recursive: true });
    symlinkSync('/nonexistent', join(roots.kubeLogLinks, `checkout-7d9f8-abcde_shop_api-${ID}.log`));
    expect(describeContainer({ id: ID, engine: 'containerd', podUid: POD }, 0, roots)).toMatchObject({
      name: 'shop/checkout-7d9f8-abcde/api',
      image: null,
      podUid: POD,
    });
  });
});
