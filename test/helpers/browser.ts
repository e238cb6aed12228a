/** Debian's Chromium driven by playwright-core, and `gcscope serve` started as a user would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { BIN } from './cli.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumMissingReason(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `Chromium is not installed at ${CHROMIUM} (apt-get install chromium)`;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface Served {
  url: string;
  origin: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `gcscope serve --db DB` and reads the URL from its first line of output. */
export async function serve(db: string): Promise<Served> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl).trim());
    });
    proc.once('exit', (c) => reject(new Error(`gcscope serve exited (${c}): ${err}`)));
  });
  return {
    url,
    origin: new URL(url).origin,
    proc,
    stop: async () => {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}
