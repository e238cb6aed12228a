/**
 * `npm install` works in a checkout whose path holds a space. Where no prebuilt sqlite3 can be
 * downloaded it builds from source, and sqlite3's binding.gyp takes its include path from
 * `node -p "require('node-addon-api').include"`, run in node_modules/sqlite3; gyp writes that path
 * into an unquoted -I flag. vendor/node-addon-api (see its README) answers with a relative path.
 * A full install takes minutes, so this checks the parts that made it fail: sqlite3 resolves the
 * vendored package, and what gyp reads holds no quote and no absolute path.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const SQLITE = join(ROOT, 'node_modules', 'sqlite3');

/** What gyp's `<!@(node -p "require('node-addon-api').<key>")` reads, run where node-gyp runs it. */
function gypReads(key: string): string {
  return execFileSync(process.execPath, ['-p', `require('node-addon-api').${key}`], { cwd: SQLITE, encoding: 'utf8' }).trim();
}

describe('npm install in a folder whose path has a space', () => {
  it('package.json points sqlite3 at the vendored node-addon-api', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; overrides: Record<string, string> };
    expect(pkg.dependencies['node-addon-api']).toBe('file:vendor/node-addon-api');
    expect(pkg.overrides['node-addon-api']).toBe('$node-addon-api');
  });

  it('the include path sqlite3 builds with is relative, unquoted and finds napi.h', () => {
    // Before the lockfile's install, node_modules may still hold the registry copy; the vendored
    // index.js is what a fresh install links, so ask it directly too.
    const vendored = execFileSync(process.execPath, ['-p', `require(${JSON.stringify(join(ROOT, 'vendor', 'node-addon-api'))}).include`], {
      cwd: SQLITE,
      encoding: 'utf8',
    }).trim();
    for (const include of [vendored, gypReads('include_dir')]) {
      expect(include).not.toMatch(/["\s]/);
      expect(isAbsolute(include)).toBe(false);
      expect(readFileSync(resolve(SQLITE, include, 'napi.h'), 'utf8')).toContain('namespace Napi');
    }
  });

  it('the vendored headers are the version sqlite3 asks for', () => {
    const want = (JSON.parse(readFileSync(join(SQLITE, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['node-addon-api']!;
    const have = (JSON.parse(readFileSync(join(ROOT, 'vendor', 'node-addon-api', 'package.json'), 'utf8')) as { version: string }).version;
    expect(Number(have.split('.')[0])).toBeGreaterThanOrEqual(Number(want.replace(/^\D+/, '').split('.')[0]));
  });
});
