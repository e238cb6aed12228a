/**
 * Every .NET process this user can attach to, those in containers included: endpoints probed with
 * ProcessInfo, each with the PID it has inside its namespace and the container it runs in.
 */
import { processNameFromCommandLine } from '../common/process-name.js';
import { probe } from './client.js';
import type { ProcessInfo } from './commands.js';
import { containerOf } from './containers.js';
import { listEndpoints } from './discovery.js';
import type { DotnetProcess } from '../shared/contract.js';

/** What the app lists (shared/contract.ts), plus what `gcscope ps --json` adds. */
export interface ListedProcess extends DotnetProcess {
  runtimeIdentifier: string | null;
  entryAssembly: string | null;
}

export async function listDotnetProcesses(): Promise<ListedProcess[]> {
  const eps = listEndpoints().filter((e) => e.pid !== process.pid);
  const rows = await Promise.all(
    eps.map(async (ep): Promise<ListedProcess | undefined> => {
      let info: ProcessInfo;
      try {
        info = await probe(ep);
      } catch {
        return undefined;
      }
      return {
        pid: ep.pid,
        name: info.managedEntrypointAssemblyName || processNameFromCommandLine(info.commandLine) || `process ${ep.pid}`,
        commandLine: info.commandLine,
        runtimeVersion: info.clrProductVersion?.replace(/\+.*$/, '') ?? null,
        os: info.os,
        arch: info.arch,
        runtimeIdentifier: info.runtimeIdentifier,
        entryAssembly: info.managedEntrypointAssemblyName,
        innerPid: ep.innerPid ?? null,
        container: process.platform === 'linux' ? containerOf(ep.pid) : null,
      };
    }),
  );
  return rows.filter((r): r is ListedProcess => r !== undefined);
}
