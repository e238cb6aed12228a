/**
 * The layering of src-main/README.md is enforced by ESLint (eslint.config.mjs), which `npm test`
 * runs: an import from a lower layer to a higher one, I/O in the pure core, or a renderer file
 * reaching past shared/ and lib/api.ts fails the build. Checked here with the project's own
 * config on sources that break each rule, so the rules cannot silently stop applying.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-properties').map((m) => m.message);
}

describe('the layering lint', () => {
  it('fails a store module that imports the GC analysis (a higher layer)', async () => {
    expect(await restricted('src-main/store/x.ts', "import { GCAnalyzer } from '../gc/gc-analyzer.js';\nexport const a = GCAnalyzer;\n")).toEqual([
      expect.stringContaining('store/ may import only shared/'),
    ]);
  });

  it('fails a service module that imports the CLI, and a recording module that imports the service', async () => {
    expect(await restricted('src-main/service/x.ts', "import { main } from '../cli/main.js';\nexport const a = main;\n")).toHaveLength(1);
    expect(await restricted('src-main/recording/x.ts', "import { toApiError } from '../service/errors.js';\nexport const a = toApiError;\n")).toHaveLength(1);
  });

  it('fails file-system access in the pure core (report/ included)', async () => {
    expect(await restricted('src-main/report/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n")).toEqual([
      expect.stringContaining('pure core does no I/O'),
    ]);
  });

  it('fails I/O or a store import in the diagnosis (pure: rules over columns)', async () => {
    expect(await restricted('src-main/diagnosis/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n")).toEqual([
      expect.stringContaining('pure core does no I/O'),
    ]);
    expect(await restricted('src-main/diagnosis/x.ts', "import { getGcRecords } from '../store/gc-store.js';\nexport const a = getGcRecords;\n")).toEqual([
      expect.stringContaining('diagnosis/ may import only'),
    ]);
    expect(await restricted('src-main/diagnosis/x.ts', "import { summarize } from '../gc/summary.js';\nexport const a = summarize;\n")).toEqual([]);
  });

  it('fails a renderer component that imports the decoder or reads the preload globals itself', async () => {
    const svelte =
      '<script lang="ts">\n  import { decodeGcEvent } from \'../../src-main/clr/gc-events\';\n  const f = window.profilerFiles;\n</script>\n<p>{decodeGcEvent}{f}</p>\n';
    const msgs = await restricted('src-renderer/components/X.svelte', svelte);
    expect(msgs).toHaveLength(2);
  });

  it('fails the renderer, shared/ or preload/ importing main-only common/, and I/O in common/', async () => {
    expect(await restricted('src-renderer/state/x.ts', "import { Lru } from '../../src-main/common/lru';\nexport const a = Lru;\n")).toHaveLength(1);
    expect(await restricted('src-main/shared/x.ts', "import { Lru } from '../common/lru.js';\nexport const a = Lru;\n")).toContainEqual(
      expect.stringContaining('shared/ may import only itself'),
    );
    expect(await restricted('src-main/preload/x.ts', "import { Lru } from '../common/lru.js';\nexport const a = Lru;\n")).toHaveLength(1);
    expect(await restricted('src-main/common/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n")).toEqual([
      expect.stringContaining('pure core does no I/O'),
    ]);
    expect(await restricted('src-main/store/x.ts', "import { Lru } from '../common/lru.js';\nexport const a = Lru;\n")).toEqual([]);
  });

  it('lints a component whole: markup rules apply, and a name the markup uses is not unused', async () => {
    const svelte =
      '<script lang="ts">\n  let { html, items }: { html: string; items: { id: number }[] } = $props();\n  const unused = 1;\n</script>\n{@html html}\n{#each items as item}<p>{item.id}</p>{/each}\n';
    const [r] = await eslint.lintText(svelte, { filePath: 'src-renderer/components/X.svelte' });
    expect(r!.messages.map((m) => m.ruleId).sort()).toEqual(['@typescript-eslint/no-unused-vars', 'svelte/no-at-html-tags', 'svelte/require-each-key']);
  });

  it('passes the downward imports the design allows', async () => {
    expect(
      await restricted(
        'src-main/recording/x.ts',
        "import { GcWriter } from '../store/gc-store.js';\nimport { GCAnalyzer } from '../gc/gc-analyzer.js';\nexport const a = [GcWriter, GCAnalyzer];\n",
      ),
    ).toEqual([]);
    expect(await restricted('src-renderer/state/x.ts', "import { formatMs } from '../../src-main/shared/format';\nexport const a = formatMs;\n")).toEqual([]);
  });
});
