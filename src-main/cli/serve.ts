/** `gcscope serve`: the app's UI in a browser, on 127.0.0.1 with a random access token. */
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { ProfilerService } from '../service/profiler-service.js';
import { sweepStaleUploadFolders } from '../service/uploads.js';
import { defaultDatabasePath } from '../store/db.js';
import { startWebServer } from '../web/server.js';
import { CliError, EXIT_BAD_INPUT, EXIT_OK } from './output.js';
import { packageRoot } from './package-root.js';

const UPLOAD_PREFIX = 'gcscope-uploads-';

export async function runServe(opts: { db?: string; port?: string; token?: string }): Promise<number> {
  const port = opts.port === undefined ? 0 : Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port needs a port number, not "${opts.port}"`, EXIT_BAD_INPUT);
  const root = packageRoot();
  const dbPath = opts.db ?? defaultDatabasePath();
  // Upload folders of earlier `serve` processes that were killed before they could remove them.
  sweepStaleUploadFolders(tmpdir(), UPLOAD_PREFIX);
  const service = await ProfilerService.create({
    dbPath,
    // Absolute: recordings store their raw trace's path under it (a relative --db made it relative).
    tracesDir: resolve(dirname(dbPath), 'traces'),
    uploadDir: join(tmpdir(), `${UPLOAD_PREFIX}${process.pid}`),
    mode: 'browser',
    version: process.env.npm_package_version ?? '0.1.0',
    samplePath: join(root, 'assets', 'sample-gc-workload.nettrace.zip'),
    workerScript: join(root, 'dist', 'import-worker.mjs'),
    recordWorkerScript: join(root, 'dist', 'record-worker.mjs'),
    analysisWorkerScript: join(root, 'dist', 'analysis-worker.mjs'),
    heapWorkerScript: join(root, 'dist', 'heap-worker.mjs'),
  });
  const web = await startWebServer({
    api: service,
    events: service.events,
    rendererDir: join(root, 'dist', 'renderer'),
    port,
    ...(opts.token !== undefined ? { token: opts.token } : {}),
  });
  // The first line of output is the URL (scripts and tests read it).
  process.stdout.write(`${web.url}\n`);
  process.stderr.write(
    `GCScope is serving ${dbPath} at ${web.origin} (only this machine can connect; the URL above carries the access token). Ctrl+C stops.\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await web.close();
  await service.close();
  return EXIT_OK;
}
