/**
 * All SQL lives in src-main/store/ (src-main/README.md): ESLint (eslint.config.mjs, run by
 * `npm test`) fails SQL text and statements run on a database handle anywhere else in src-main.
 * Checked here with the project's own config on planted violations, so the rule cannot silently
 * stop applying, and on the code it must leave alone.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function sqlFindings(filePath: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const QUERY =
  "import type { Database } from '../store/db.js';\nexport const f = (db: Database) => db.get<{ idx: number }>('SELECT idx FROM gcs WHERE session_id = ?', [1]);\n";

describe('the SQL-in-store lint', () => {
  it('fails a query in the service, the recording pipelines, the CLI and the watcher', async () => {
    for (const folder of ['service', 'recording', 'cli', 'watch', 'app']) {
      // The SQL text and the statement run on the handle: two findings.
      expect(await sqlFindings(`src-main/${folder}/x.ts`, QUERY), folder).toEqual([
        expect.stringContaining('SQL belongs in src-main/store/'),
        expect.stringContaining('SQL belongs in src-main/store/'),
      ]);
    }
  });

  it('fails SQL in a template, in lower case, or passed to the handle in a variable', async () => {
    expect(await sqlFindings('src-main/recording/x.ts', 'export const q = (t: string) => `DELETE FROM ${t} WHERE session_id = ?`;\n')).toHaveLength(1);
    expect(await sqlFindings('src-main/service/x.ts', "export const q = 'select idx from gcs where session_id = ?';\n")).toHaveLength(1);
    expect(await sqlFindings('src-main/watch/x.ts', "export const q = 'PRAGMA user_version';\n")).toHaveLength(1);
    const viaVariable =
      'export class V {\n  constructor(private readonly db: { all(sql: string): Promise<unknown[]> }) {}\n  rows(sql: string) { return this.db.all(sql); }\n}\n';
    expect(await sqlFindings('src-main/service/x.ts', viaVariable)).toHaveLength(1);
  });

  it('passes the same query in store/, and English or a Map lookup elsewhere', async () => {
    expect(await sqlFindings('src-main/store/x.ts', QUERY)).toEqual([]);
    expect(
      await sqlFindings(
        'src-main/cli/x.ts',
        "export const hint = 'Select a session from the list, or update it';\nconst m = new Map<string, number>();\nexport const v = m.get('x');\n",
      ),
    ).toEqual([]);
    expect(await sqlFindings('src-main/web/x.ts', "export const isDelete = (method: string) => method === 'DELETE';\n")).toEqual([]);
  });
});
