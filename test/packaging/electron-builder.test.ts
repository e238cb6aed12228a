/**
 * The installers' configuration, checked without building them (Electron's binaries cannot be
 * downloaded here): electron-builder.yml passes electron-builder's own schema validation, what it
 * packs exists, the native sqlite3 binding is unpacked from the asar, the fuses match Electron's
 * security checklist, and every platform's icon exists at the sizes it needs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = process.cwd();
const require = createRequire(import.meta.url);
interface Target {
  target: string;
  arch: string[];
}
interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string }[];
  electronFuses: Record<string, boolean>;
  fileAssociations: { ext: string }[];
  icon: string;
  linux: { target: Target[]; icon: string };
  win: { target: Target[]; icon: string };
  mac: { target: Target[]; icon: string };
}
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [relative(ROOT, p).split('\\').join('/')];
  });
}

/** The width and height in a PNG's IHDR chunk. */
function pngSize(b: Buffer): [number, number] {
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation (a typo would break `npm run dist`)", async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration: (c: unknown, l: unknown) => Promise<void> };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, linx: {} }, new DebugLogger(false))).rejects.toThrow(/linx/);
  });

  it('packs the built app: package.json main, preload, renderer, CLI and import worker are all matched by `files`', () => {
    expect(existsSync(join(ROOT, 'dist')), 'run `npm run build` first').toBe(true);
    const built = walk(join(ROOT, 'dist')).concat('package.json');
    const included = (f: string): boolean => {
      let inc = false;
      for (const p of config.files) {
        if (p.startsWith('!')) {
          if (minimatch(f, p.slice(1))) inc = false;
        } else if (minimatch(f, p)) inc = true;
      }
      return inc;
    };
    for (const f of [
      pkg.main,
      'dist/preload/index.cjs',
      'dist/renderer/index.html',
      'dist/cli.mjs',
      'dist/import-worker.mjs',
      'dist/record-worker.mjs',
      'dist/analysis-worker.mjs',
      'dist/heap-worker.mjs',
      'package.json',
    ]) {
      expect(built, `${f} is built`).toContain(f);
      expect(included(f), `${f} is packed`).toBe(true);
    }
    expect(
      built.filter((f) => f.endsWith('.map')).every((f) => !included(f)),
      'source maps stay out',
    ).toBe(true);
    for (const r of config.extraResources) expect(existsSync(join(ROOT, r.from)), r.from).toBe(true);
  });

  it('unpacks the native sqlite3 binding and the import worker from the asar (a packed .node cannot load)', () => {
    const sqliteDir = join(require.resolve('sqlite3/package.json'), '..');
    const natives = walk(sqliteDir).filter((f) => f.endsWith('.node'));
    expect(natives.length).toBeGreaterThan(0);
    const unpacked = (f: string): boolean => config.asarUnpack.some((p) => minimatch(f, p, { dot: true }));
    for (const f of natives) expect(unpacked(f), f).toBe(true);
    expect(unpacked('node_modules/sqlite3/lib/sqlite3-binding.js')).toBe(true);
    expect(unpacked('dist/import-worker.mjs')).toBe(true);
    expect(unpacked('dist/record-worker.mjs')).toBe(true);
    expect(unpacked('dist/analysis-worker.mjs')).toBe(true);
    expect(unpacked('dist/heap-worker.mjs')).toBe(true);
    expect(pkg.dependencies.sqlite3, 'sqlite3 ships as a production dependency').toBeDefined();
    expect(pkg.devDependencies.electron, 'Electron stays a devDependency').toBeDefined();
  });

  it('sets the Electron fuses from the security checklist', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('builds every target the README promises: AppImage and deb, NSIS, dmg for x64 and arm64', () => {
    const targets = (os: 'linux' | 'win' | 'mac'): Record<string, string[]> => Object.fromEntries(config[os].target.map((t) => [t.target, t.arch]));
    expect(targets('linux')).toEqual({ AppImage: ['x64', 'arm64'], deb: ['x64', 'arm64'] });
    expect(targets('win')).toEqual({ nsis: ['x64', 'arm64'] });
    expect(targets('mac')).toEqual({ dmg: ['x64', 'arm64'] });
    expect(config.fileAssociations).toEqual(expect.arrayContaining([expect.objectContaining({ ext: 'nettrace' })]));
  });

  it('has the icon at the sizes each platform needs', () => {
    // macOS: 1024×1024 source and an .icns carrying 16…1024.
    expect(pngSize(readFileSync(join(ROOT, config.icon)))).toEqual([1024, 1024]);
    const icns = readFileSync(join(ROOT, config.mac.icon));
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    // Entries by type: is32 16px and il32 32px (RLE, with s8mk/l8mk masks), then PNGs: ic07 128,
    // ic08 256, ic09 512, ic10 1024 (512@2x), ic11–ic14 the @2x of 16–256.
    const ICNS_PX: Record<string, number> = { is32: 16, il32: 32, ic11: 32, ic12: 64, ic07: 128, ic13: 256, ic08: 256, ic14: 512, ic09: 512, ic10: 1024 };
    const icnsTypes: string[] = [];
    for (let o = 8; o < icns.length; o += icns.readUInt32BE(o + 4)) {
      const type = icns.subarray(o, o + 4).toString('latin1');
      const body = icns.subarray(o + 8, o + icns.readUInt32BE(o + 4));
      if (body.subarray(1, 4).toString('latin1') === 'PNG') expect(pngSize(body)[0], type).toBe(ICNS_PX[type]);
      icnsTypes.push(type);
    }
    for (const t of ['is32', 's8mk', 'il32', 'l8mk', 'ic07', 'ic08', 'ic09', 'ic10', 'ic11', 'ic12', 'ic13', 'ic14'])
      expect(icnsTypes, `icns ${t}`).toContain(t);
    // Windows: an .ico with 16, 24, 32, 48 and 256 (0 in the directory means 256).
    const ico = readFileSync(join(ROOT, config.win.icon));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const icoSizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + i * 16]! || 256);
    for (const s of [16, 24, 32, 48, 256]) expect(icoSizes, `ico ${s}px`).toContain(s);
    // Linux: a directory of NxN.png (hicolor sizes), each really that size.
    const dir = join(ROOT, config.linux.icon);
    for (const s of [16, 32, 48, 64, 128, 256, 512]) expect(pngSize(readFileSync(join(dir, `${s}x${s}.png`))), `${s}x${s}.png`).toEqual([s, s]);
  });
});
