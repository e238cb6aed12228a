/**
 * `report --format json` is written GC by GC; the text must stay exactly what one
 * JSON.stringify of the whole report gives (the published JSON shape, docs/contract.md).
 */
import { describe, expect, it } from 'vitest';
import { jsonReplacer } from '../../src-main/cli/output.js';
import { reportJsonPieces } from '../../src-main/report/json.js';
import { reportFromFile } from '../../src-main/recording/report-source.js';
import { TRACES } from '../helpers/fixtures.js';

describe('report JSON written in pieces', () => {
  for (const name of ['workload-server.nettrace.zip', 'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip', 'jit.nettrace']) {
    it(`${name}: the pieces join to exactly the JSON of the whole report`, async () => {
      const rep = await reportFromFile(TRACES + name);
      const pieces = [...reportJsonPieces(rep, jsonReplacer)];
      expect(pieces.join('')).toBe(JSON.stringify(rep, jsonReplacer, 2) + '\n');
      // Over several slices of the list too (the GCs repeated past a thousand).
      if (rep.gcs.length > 0) {
        const many = { ...rep, gcs: Array.from({ length: Math.ceil(1000 / rep.gcs.length) + 1 }, () => rep.gcs).flat() };
        const manyPieces = [...reportJsonPieces(many, jsonReplacer)];
        expect(manyPieces.length).toBeGreaterThan(4);
        expect(manyPieces.join('')).toBe(JSON.stringify(many, jsonReplacer, 2) + '\n');
      }
    });
  }
});
