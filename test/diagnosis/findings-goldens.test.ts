/**
 * Findings goldens: every real trace in test/fixtures/traces has its findings written down in
 * test/diagnosis/goldens/<trace>.findings.json, reviewed like code (goldens/README.md says why
 * each trace's findings are right). A change in any rule's verdict on real data shows here as a
 * diff a reviewer must accept. A trace added without a golden fails this test: write one with
 * GOLDEN_UPDATE=1 npx vitest run test/diagnosis/findings-goldens.test.ts, then review it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reportFromFile } from '../../src-main/recording/report-source.js';
import { TRACES } from '../helpers/fixtures.js';

const GOLDENS = fileURLToPath(new URL('./goldens/', import.meta.url));
const update = process.env.GOLDEN_UPDATE === '1';

/** Every trace file in the fixtures folder (the workloads' .counts.json files are not traces). */
const traces = readdirSync(TRACES)
  .filter((f) => /\.(nettrace|netperf)(\.zip)?$/.test(f))
  .sort();

async function findingsOf(name: string): Promise<unknown> {
  let rep;
  try {
    rep = await reportFromFile(TRACES + name);
  } catch (e) {
    // A trace the reader refuses (the netperf V2 reject case) has no findings: say why.
    return { trace: name, refused: e instanceof Error ? e.message : String(e) };
  }
  return {
    trace: name,
    gcCount: rep.gcs.length,
    findings: rep.findings.map((f) => ({ id: f.id, severity: f.severity, score: f.score, title: f.title, evidence: f.evidence })),
    notMeasured: rep.findingsNotMeasured.map((n) => n.id),
  };
}

describe('findings on every real trace match their reviewed golden', () => {
  it('has a trace list to check', () => {
    expect(traces.length).toBeGreaterThanOrEqual(25);
  });
  for (const name of traces) {
    it(name, async () => {
      const actual = await findingsOf(name);
      const file = `${GOLDENS}${name}.findings.json`;
      if (update) {
        mkdirSync(GOLDENS, { recursive: true });
        writeFileSync(file, JSON.stringify(actual, null, 2) + '\n');
      }
      expect(existsSync(file), `no findings golden for ${name}: record it with GOLDEN_UPDATE=1 and review it (goldens/README.md)`).toBe(true);
      expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
    });
  }
});
