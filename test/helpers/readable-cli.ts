/**
 * The built CLI where another user can run it. Tests that run `gcscope` as nobody (as root,
 * where permission bits do not apply to root) need nobody to read bin/, dist/ and the runtime
 * packages; a checkout cloned into a private folder (`mktemp -d`, mode 700) is unreadable to
 * nobody, and those tests failed there with "Cannot find module …/bin/gcscope.mjs". Then what the
 * CLI needs — bin/, dist/, package.json and the runtime dependencies with theirs — is copied to
 * a world-readable temporary folder, and the tests run that copy: the same bundle, not a skip.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { BIN } from './cli.js';

const ROOT = dirname(dirname(BIN));

/** Whether the user `uid` can read `path` (a child run as that user tries). */
export function readableBy(path: string, uid: number, gid: number): boolean {
  const r = spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(path)}, require('node:fs').constants.R_OK)`], { uid, gid });
  return r.status === 0;
}

/** The folder of package `name` as Node resolves it from `from` (node_modules up the tree to ROOT; symlinks kept as given). */
function packageDir(name: string, from: string): string | undefined {
  for (let d = from; ; d = dirname(d)) {
    const p = join(d, 'node_modules', name);
    if (relative(ROOT, p).startsWith('..')) return undefined; // only what the checkout has
    if (existsSync(join(p, 'package.json'))) return p;
  }
}

/** The runtime packages (dependencies and optionalDependencies, transitively): path under ROOT → source folder. */
function runtimePackages(): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (name: string, from: string): void => {
    // Found by walking node_modules up from ROOT's own paths, so each is a path under ROOT
    // (node_modules/a, or node_modules/a/node_modules/b for a nested copy) that the copy keeps.
    const dir = packageDir(name, from);
    if (dir === undefined) return; // an optional dependency not installed here
    const rel = relative(ROOT, dir);
    if (out.has(rel)) return;
    out.set(rel, dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: object; optionalDependencies?: object };
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, dir);
  };
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: object };
  for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, ROOT);
  return out;
}

/** Gives everyone read access (and search on folders) under `path`. */
export function makeWorldReadable(path: string): void {
  const st = statSync(path);
  chmodSync(path, st.mode | (st.isDirectory() ? 0o555 : st.mode & 0o111 ? 0o555 : 0o444));
  if (st.isDirectory()) for (const e of readdirSync(path)) makeWorldReadable(join(path, e));
}

/**
 * A path to the built CLI that the user `uid` can run: bin/gcscope.mjs itself when it can read
 * the checkout, else a copy (remove it with `cleanup`). Throws, saying why, when even node is
 * out of its reach.
 */
export function cliReadableBy(uid: number, gid: number): { bin: string; copied: boolean; cleanup: () => void } {
  if (!readableBy(process.execPath, uid, gid)) throw new Error(`the user ${uid} cannot run ${process.execPath}: put node where every user can run it`);
  if (readableBy(BIN, uid, gid)) return { bin: BIN, copied: false, cleanup: () => undefined };
  const copy = mkdtempSync(join(tmpdir(), 'gcscope-cli-copy-'));
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true, dereference: true });
  for (const [rel, src] of runtimePackages()) cpSync(src, join(copy, rel), { recursive: true, dereference: true });
  makeWorldReadable(copy);
  const bin = join(copy, 'bin', 'gcscope.mjs');
  if (!readableBy(bin, uid, gid)) throw new Error(`the user ${uid} cannot read the copy of the CLI in ${copy} either (is ${tmpdir()} private?)`);
  return { bin, copied: true, cleanup: () => rmSync(copy, { recursive: true, force: true }) };
}
