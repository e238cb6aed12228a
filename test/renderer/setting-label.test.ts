/** The settings page names every rule's thresholds in words, not by their camelCase keys. */
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src-main/diagnosis/rule-table.js';
import { settingLabel } from '../../src-renderer/lib/setting-label.js';

describe('settings labels', () => {
  it('reads infoMSec as "Info at" and dominatedShare as "Dominated share", not the raw field names', () => {
    expect(settingLabel('infoMSec')).toBe('Info at');
    expect(settingLabel('warnPauseShare')).toBe('Warning pause share');
    expect(settingLabel('dominatedShare')).toBe('Dominated share');
    expect(settingLabel('minGen2GCs')).toBe('Minimum gen2 GCs');
    expect(settingLabel('warmUpFraction')).toBe('Warm-up fraction');
  });

  it('gives every setting of every rule a label in words: no camelCase, no unit word the box already shows', () => {
    const settings = RULES.flatMap((r) => (r.settings ?? []).map((s) => s.name));
    expect(settings.length).toBeGreaterThan(40);
    for (const name of settings) {
      const label = settingLabel(name);
      expect(label, name).not.toBe(name);
      expect(label, name).not.toMatch(/[a-z][A-Z]|MSec|Percent|PerMin/);
      expect(label, name).toMatch(/^[A-Z]/);
    }
  });
});
