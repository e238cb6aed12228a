/**
 * How a process's container reads in the home list's chip and tooltip and in `gcscope ps`'s
 * Container column, and the `sudo gcscope …` a permission error offers (copied into a shell as is).
 */
import { describe, expect, it } from 'vitest';
import { containerLabel } from '../../src-main/cli/live-commands.js';
import { rerunAsRoot, setRerunArgs } from '../../src-main/diagnostics/rerun.js';
import { containerShortName, containerTitle } from '../../src-main/shared/container-text.js';
import type { ProcessContainer } from '../../src-main/shared/contract.js';

const ID = '0123456789abcdef'.repeat(4);
const named: ProcessContainer = { id: ID, engine: 'docker', name: 'orders-api', image: 'registry.example/orders:1.4', podUid: null };
const bare: ProcessContainer = { id: ID, engine: 'containerd', name: null, image: null, podUid: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' };

describe('a container as the list shows it', () => {
  it('the name where the host could read it, else the 12-digit short id docker ps shows', () => {
    expect(containerShortName(named)).toBe('orders-api');
    expect(containerShortName(bare)).toBe('0123456789ab');
  });

  it('the tooltip tells engine, image, full id, pod and the PID inside', () => {
    expect(containerTitle({ container: named, innerPid: 1 })).toBe(`Docker container orders-api (image registry.example/orders:1.4, id ${ID}); PID 1 inside`);
    expect(containerTitle({ container: bare, innerPid: 7 })).toBe(
      `containerd container 0123456789ab (id ${ID}, pod 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d); PID 7 inside`,
    );
    expect(containerTitle({ container: null, innerPid: 1 })).toBe('In a PID namespace of its own (not a container GCScope recognises); PID 1 inside');
    expect(containerTitle({ container: null, innerPid: null })).toBe('');
  });

  it("gcscope ps's Container column: blank for a plain local process", () => {
    expect(containerLabel({ container: named, innerPid: 1 })).toBe('orders-api (docker), PID 1');
    expect(containerLabel({ container: null, innerPid: 1 })).toBe('own PID namespace, PID 1');
    expect(containerLabel({ container: named, innerPid: null })).toBe('orders-api (docker)');
    expect(containerLabel({ container: null, innerPid: null })).toBe('');
  });
});

describe('the command a permission error offers', () => {
  it('is the command that was run, under sudo, quoted where a shell needs it', () => {
    setRerunArgs(['record', '--pid', '4242', '--name', "Bob's run", '--out', '/tmp/x y']);
    expect(rerunAsRoot()).toBe(`sudo gcscope record --pid 4242 --name 'Bob'\\''s run' --out '/tmp/x y'`);
  });
});
