/**
 * Named settings: every rule threshold as `<rule id>.<name>` with its documented default (the
 * rule modules declare them; docs/diagnosis.md lists them). Overrides come from
 * `gcscope diagnose --set key=value` and the app's settings page; an unknown key or a value that
 * is not a finite number is refused with a message naming it, never silently ignored.
 */
import type { DiagnosisOverrides, DiagnosisSettingInfo } from '../shared/finding.js';
import type { Rule } from './rule.js';
import { RULES } from './rule-table.js';

export class DiagnosisSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiagnosisSettingsError';
  }
}

/** Every setting of these rules (default: the rule table), in rule order. */
export function settingInfos(rules: readonly Rule[] = RULES): DiagnosisSettingInfo[] {
  return rules.flatMap((r) => r.settings.map((d) => ({ key: `${r.id}.${d.name}`, default: d.default, unit: d.unit, description: d.description })));
}

/** Checks overrides against the settings; throws DiagnosisSettingsError naming the first bad one. */
export function validateOverrides(overrides: DiagnosisOverrides, rules: readonly Rule[] = RULES): void {
  const known = new Set(settingInfos(rules).map((s) => s.key));
  for (const [k, v] of Object.entries(overrides)) {
    if (!known.has(k)) {
      const rule = k.split('.')[0]!;
      const hint = rules.find((r) => r.id === rule);
      throw new DiagnosisSettingsError(
        hint !== undefined
          ? `unknown setting ${k}: ${rule} has ${hint.settings.map((d) => d.name).join(', ')}`
          : `unknown setting ${k}: rules are ${rules.map((r) => r.id).join(', ')}`,
      );
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new DiagnosisSettingsError(`setting ${k} must be a finite number`);
  }
}

/** One rule's settings by name: defaults, then overrides. */
export function resolveRuleSettings(rule: Rule, overrides: DiagnosisOverrides): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of rule.settings) out[d.name] = overrides[`${rule.id}.${d.name}`] ?? d.default;
  return out;
}

/** Parses `key=value` strings (the CLI's --set). */
export function parseOverrides(pairs: readonly string[]): DiagnosisOverrides {
  const out: DiagnosisOverrides = {};
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new DiagnosisSettingsError(`--set ${p}: expected rule.setting=value`);
    const key = p.slice(0, eq).trim();
    const raw = p.slice(eq + 1).trim();
    const v = raw === '' ? Number.NaN : Number(raw);
    if (!Number.isFinite(v)) throw new DiagnosisSettingsError(`--set ${p}: ${JSON.stringify(raw)} is not a number`);
    out[key] = v;
  }
  validateOverrides(out);
  return out;
}
