/**
 * Electron main: single instance, a hardened window loading the renderer from app://gcscope
 * (never file://), the backend service, native menus with shortcuts, and .nettrace files opened
 * from the OS (file association, second instance, macOS open-file). Kept small: everything that
 * can be tested without Electron lives in service/ and is shared with `gcscope serve`.
 */
import { app, BrowserWindow, dialog, Menu, nativeTheme, net, Notification, protocol, shell } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProfilerService } from '../service/profiler-service.js';
import { defaultDatabasePath } from '../store/db.js';
import { staticFilePath } from '../service/static-path.js';
import { registerIpc } from './ipc.js';
import { notifyCaptures } from './capture-notifications.js';
import { APP_ORIGIN, APP_SCHEME, CSP, devToolsAllowed, guardAllWebContents, webPreferences } from './security.js';

const root = join(__dirname, '..', '..');
const rendererDir = join(root, 'dist', 'renderer');
// Packaged (electron-builder.yml): the sample trace is an extra resource next to app.asar, and
// the import and recording workers are unpacked from the asar so they can load the native sqlite3 binding.
const samplePath = app.isPackaged ? join(process.resourcesPath, 'sample-gc-workload.nettrace.zip') : join(root, 'assets', 'sample-gc-workload.nettrace.zip');
const workerScript = join(root.replace(/app\.asar$/, 'app.asar.unpacked'), 'dist', 'import-worker.mjs');
const recordWorkerScript = join(root.replace(/app\.asar$/, 'app.asar.unpacked'), 'dist', 'record-worker.mjs');
const analysisWorkerScript = join(root.replace(/app\.asar$/, 'app.asar.unpacked'), 'dist', 'analysis-worker.mjs');
const heapWorkerScript = join(root.replace(/app\.asar$/, 'app.asar.unpacked'), 'dist', 'heap-worker.mjs');
let win: BrowserWindow | undefined;
let service: ProfilerService | undefined;
const pendingOpens: string[] = [];

// Every renderer sandboxed, and every WebContents hardened as it is created (security.ts).
app.enableSandbox();
guardAllWebContents(app, { allowDevTools: devToolsAllowed(app.isPackaged) });
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

/** The files GCScope opens: EventPipe traces, Windows ETW traces (PerfView's .etl.zip is a .zip), and zips of them. */
const TRACE_FILE = /\.(nettrace|netperf|etl|zip)$/i;

function traceArgs(argv: string[]): string[] {
  return argv.filter((a) => TRACE_FILE.test(a) && existsSync(a));
}

async function openTrace(path: string): Promise<void> {
  if (service === undefined) {
    pendingOpens.push(path);
    return;
  }
  await service.importTracePath(path, false).catch((e: Error) => dialog.showErrorBox('GCScope cannot open this file', e.message));
}

function buildMenu(): void {
  const send = (action: string): void =>
    void win?.webContents.executeJavaScript(`window.dispatchEvent(new CustomEvent('gcscope-menu', { detail: ${JSON.stringify(action)} }))`);
  const template: Electron.MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Trace…', accelerator: 'CmdOrCtrl+O', click: () => void service?.pickAndImportTrace() },
        { label: 'Open Sample Trace', click: () => send('open-sample') },
        { type: 'separator' },
        { label: 'Home', accelerator: 'CmdOrCtrl+H', click: () => send('home') },
        { label: 'Sessions Library', accelerator: 'CmdOrCtrl+L', click: () => send('library') },
        { type: 'separator' },
        process.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Session',
      submenu: [
        { label: 'Stop Recording', accelerator: 'CmdOrCtrl+.', click: () => send('stop') },
        { label: 'Follow Live', accelerator: 'CmdOrCtrl+F', click: () => send('follow') },
        { label: 'Reset Zoom', accelerator: 'CmdOrCtrl+0', click: () => send('reset-zoom') },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(devToolsAllowed(app.isPackaged) ? [{ role: 'toggleDevTools' as const }] : []),
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'help', submenu: [{ label: 'GCScope on the web', click: () => void shell.openExternal('https://github.com/') }] },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

async function createWindow(): Promise<void> {
  win = new BrowserWindow({
    width: 1440,
    height: 920,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'GCScope',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#15181e' : '#ffffff',
    webPreferences: webPreferences(join(root, 'dist', 'preload', 'index.cjs')),
  });
  win.once('ready-to-show', () => win?.show());
  win.on('closed', () => (win = undefined));
  await win.loadURL(`${APP_ORIGIN}/index.html`);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_e, argv) => {
    if (win !== undefined) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
    for (const p of traceArgs(argv)) void openTrace(p);
  });
  app.on('open-file', (e, path) => {
    e.preventDefault();
    void openTrace(path);
  });
  pendingOpens.push(...traceArgs(process.argv.slice(1)));

  void app.whenReady().then(async () => {
    protocol.handle(APP_SCHEME, async (req) => {
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return new Response('bad request', { status: 400 });
      }
      // Whole-segment containment (a sibling such as renderer-private/ is outside), and no throw
      // on invalid percent-encoding.
      const file = url.host === 'gcscope' ? staticFilePath(rendererDir, url.pathname) : null;
      if (file === null) return new Response('not found', { status: 404 });
      const res = await net.fetch(pathToFileURL(file).toString());
      const headers = new Headers(res.headers);
      headers.set('Content-Security-Policy', CSP);
      headers.set('X-Content-Type-Options', 'nosniff');
      return new Response(res.body, { status: res.status, headers });
    });
    const dbPath = defaultDatabasePath();
    service = await ProfilerService.create({
      dbPath,
      tracesDir: join(app.getPath('userData'), 'traces'),
      uploadDir: join(app.getPath('temp'), 'gcscope-uploads'),
      mode: 'desktop',
      version: app.getVersion(),
      samplePath,
      workerScript,
      recordWorkerScript,
      analysisWorkerScript,
      heapWorkerScript,
      pickTraceFile: async () => {
        const r = await dialog.showOpenDialog({
          title: 'Open a .NET trace',
          properties: ['openFile'],
          filters: [
            { name: '.NET traces (EventPipe, ETW)', extensions: ['nettrace', 'netperf', 'etl', 'zip'] },
            { name: 'All files', extensions: ['*'] },
          ],
        });
        return r.canceled ? null : (r.filePaths[0] ?? null);
      },
      pickSavePath: async (name) => {
        const r = await dialog.showSaveDialog({ defaultPath: join(app.getPath('downloads'), name) });
        return r.canceled ? null : (r.filePath ?? null);
      },
    });
    registerIpc(service, () => win?.webContents);
    notifyCaptures(service, Notification, () => {
      if (win === undefined || win.isDestroyed()) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    });
    buildMenu();
    await createWindow();
    for (const p of pendingOpens.splice(0)) void openTrace(p);
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) void createWindow();
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => void service?.close());
}
