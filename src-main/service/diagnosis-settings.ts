/**
 * The diagnosis settings the user changed in the app (docs/diagnosis.md), saved as JSON beside the
 * database (`<database>.diagnosis.json`) so every session, and the next start, uses them. A file
 * that cannot be read or names settings this version does not know loses only those entries;
 * an in-memory database keeps them in memory.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { settingInfos, validateOverrides, DiagnosisSettingsError } from '../diagnosis/settings.js';
import type { DiagnosisSettings } from '../shared/contract.js';
import type { DiagnosisOverrides } from '../shared/finding.js';
import { ApiFailure } from './errors.js';

export class DiagnosisSettingsStore {
  private overrides: DiagnosisOverrides = {};
  private readonly path: string | null;

  constructor(dbPath: string) {
    this.path = dbPath === ':memory:' || dbPath === '' ? null : `${dbPath}.diagnosis.json`;
    this.overrides = this.read();
  }

  private read(): DiagnosisOverrides {
    if (this.path === null || !existsSync(this.path)) return {};
    try {
      const raw = JSON.parse(readFileSync(this.path, 'utf8')) as unknown;
      if (typeof raw !== 'object' || raw === null) return {};
      const known = new Set(settingInfos().map((s) => s.key));
      const out: DiagnosisOverrides = {};
      for (const [k, v] of Object.entries(raw as Record<string, unknown>)) if (known.has(k) && typeof v === 'number' && Number.isFinite(v)) out[k] = v;
      return out;
    } catch {
      return {};
    }
  }

  current(): DiagnosisOverrides {
    return { ...this.overrides };
  }

  get(): DiagnosisSettings {
    return { settings: settingInfos(), overrides: this.current() };
  }

  set(overrides: DiagnosisOverrides): DiagnosisSettings {
    try {
      validateOverrides(overrides);
    } catch (e) {
      if (e instanceof DiagnosisSettingsError) throw new ApiFailure('bad-input', `${e.message[0]!.toUpperCase()}${e.message.slice(1)}.`);
      throw e;
    }
    // Values equal to their default are not overrides.
    const defaults = new Map(settingInfos().map((s) => [s.key, s.default]));
    const next: DiagnosisOverrides = {};
    for (const [k, v] of Object.entries(overrides)) if (defaults.get(k) !== v) next[k] = v;
    if (this.path !== null) {
      const tmp = `${this.path}.tmp`;
      writeFileSync(tmp, JSON.stringify(next, null, 2) + '\n');
      renameSync(tmp, this.path);
    }
    this.overrides = next;
    return this.get();
  }
}
