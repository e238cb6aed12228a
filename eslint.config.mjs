// Lint: typescript-eslint's recommended rules, plus the layering of DESIGN.md as rules — the
// pure core imports no Node I/O, sqlite3 or Electron, and no folder imports a folder above it
// (the table in src-main/README.md). The renderer is linted too: it reaches the backend only
// through shared/ and its one API module (src-renderer/lib/api.ts). Svelte components are linted
// whole (script and markup) by eslint-plugin-svelte with its recommended rules, the script parsed
// as TypeScript.
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import tseslint from 'typescript-eslint';

const io = ['node:*', 'fs', 'fs/*', 'net', 'child_process', 'sqlite3', 'electron', 'fflate', 'path', 'os', 'worker_threads'];

/**
 * What each src-main folder may import from the others (src-main/README.md). Anything else is a
 * higher layer (or a sibling the design keeps apart) and fails the lint.
 */
const LAYERS = {
  shared: [],
  common: ['shared'],
  trace: [],
  nettrace: ['trace'],
  etl: ['trace'],
  clr: ['trace', 'nettrace', 'shared', 'common'],
  gc: ['trace', 'nettrace', 'clr', 'shared', 'common'],
  symbols: ['trace', 'nettrace', 'clr', 'shared', 'common'],
  requests: ['trace', 'nettrace', 'clr', 'gc', 'shared', 'common'],
  diagnosis: ['trace', 'nettrace', 'clr', 'gc', 'requests', 'shared', 'common'],
  compare: ['gc', 'requests', 'shared', 'common'],
  heap: ['trace', 'nettrace', 'clr', 'shared', 'common'],
  report: ['trace', 'nettrace', 'clr', 'gc', 'requests', 'diagnosis', 'compare', 'shared', 'common'],
  diagnostics: ['trace', 'nettrace', 'shared', 'common'],
  store: ['shared', 'common'],
  recording: ['heap', 'trace', 'nettrace', 'etl', 'clr', 'gc', 'requests', 'symbols', 'diagnosis', 'report', 'shared', 'common', 'store', 'diagnostics'],
  watch: [
    'heap',
    'trace',
    'nettrace',
    'etl',
    'clr',
    'gc',
    'requests',
    'symbols',
    'diagnosis',
    'report',
    'shared',
    'common',
    'store',
    'diagnostics',
    'recording',
  ],
  service: [
    'heap',
    'trace',
    'nettrace',
    'etl',
    'clr',
    'gc',
    'requests',
    'symbols',
    'diagnosis',
    'compare',
    'report',
    'shared',
    'common',
    'store',
    'diagnostics',
    'recording',
    'watch',
  ],
  web: [
    'trace',
    'heap',
    'nettrace',
    'etl',
    'clr',
    'gc',
    'requests',
    'symbols',
    'diagnosis',
    'compare',
    'report',
    'shared',
    'common',
    'store',
    'diagnostics',
    'recording',
    'watch',
    'service',
  ],
  cli: [
    'trace',
    'heap',
    'nettrace',
    'etl',
    'clr',
    'gc',
    'requests',
    'symbols',
    'diagnosis',
    'compare',
    'report',
    'shared',
    'common',
    'store',
    'diagnostics',
    'recording',
    'watch',
    'service',
    'web',
  ],
  app: [
    'trace',
    'heap',
    'nettrace',
    'etl',
    'clr',
    'gc',
    'requests',
    'symbols',
    'diagnosis',
    'compare',
    'report',
    'shared',
    'common',
    'store',
    'diagnostics',
    'recording',
    'watch',
    'service',
  ],
  preload: ['shared'],
};
const PURE = new Set(['shared', 'common', 'trace', 'nettrace', 'etl', 'clr', 'gc', 'requests', 'symbols', 'diagnosis', 'compare', 'report', 'heap']);
/** Folders that import nothing outside themselves but what LAYERS lists: not even a new sibling folder. */
const SELF_CONTAINED = new Set(['shared', 'trace', 'nettrace', 'etl']);
const FOLDERS = Object.keys(LAYERS);

function layerRules(folder) {
  const patterns = FOLDERS.filter((f) => f !== folder && !LAYERS[folder].includes(f)).map((f) => ({
    group: [`../${f}`, `../${f}/*`],
    message: `${folder}/ may import only ${LAYERS[folder].length > 0 ? LAYERS[folder].map((x) => `${x}/`).join(', ') : 'itself'} (src-main/README.md): ${f}/ is not below it`,
  }));
  if (PURE.has(folder)) patterns.push(...io.map((group) => ({ group: [group], message: 'the pure core does no I/O (DESIGN.md "Rules of the house")' })));
  if (SELF_CONTAINED.has(folder)) {
    const allowed = [folder, ...LAYERS[folder]];
    patterns.push({
      group: ['../*', ...allowed.map((f) => '!../' + f)],
      message: `${folder}/ imports nothing outside ${allowed.map((f) => `${f}/`).join(' and ')}`,
    });
  }
  return { 'no-restricted-imports': ['error', { patterns }] };
}

/** The renderer sees src-main only through shared/ (types, names, formatting). */
const rendererImports = {
  'no-restricted-imports': [
    'error',
    {
      patterns: FOLDERS.filter((f) => f !== 'shared').map((f) => ({
        group: [`**/src-main/${f}`, `**/src-main/${f}/*`],
        message: 'the renderer reaches the backend only through src-main/shared/ and src-renderer/lib/api.ts',
      })),
    },
  ],
};
/** …and the preload's globals only through lib/api.ts. */
const rendererGlobals = {
  'no-restricted-properties': [
    'error',
    { object: 'window', property: 'profiler', message: "use src-renderer/lib/api.ts, the renderer's one API module" },
    { object: 'window', property: 'profilerFiles', message: 'use pathOfDroppedFile from src-renderer/lib/api.ts' },
  ],
};

/**
 * All SQL lives in store/ (src-main/README.md; issue 36): the rest of src-main calls its typed
 * query functions. Outside store/, a string or template that opens like an SQL statement fails,
 * and so does a statement run on a database handle (`db.all(…)`, `this.db.get(…)`) whatever
 * the SQL's spelling. Keywords are matched in upper case and followed by more text (an HTTP
 * method 'DELETE' passes), lower-case SQL by its shape (`select … from`, `delete from`…), so an
 * English message ("Select a session from…") passes.
 */
const SQL_TEXT =
  '/^\\s*((SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA|WITH)\\s|(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|VACUUM|ATTACH)(\\s|;|$)' +
  '|select\\s[\\s\\S]*\\bfrom\\s|insert\\s+(or\\s+\\w+\\s+)?into\\s|replace\\s+into\\s|update\\s+\\w+\\s+set\\s|delete\\s+from\\s|(create|drop|alter)\\s+(table|index|view|trigger)\\s|pragma\\s+\\w)/';
const SQL_MESSAGE = 'SQL belongs in src-main/store/ (src-main/README.md): add a typed query function there and call it';
/**
 * `pending`: SQL texts still allowed where they are, each until the change that removes it lands
 * (named where it is used). Every other statement in the file still fails.
 */
function sqlRules(pending = []) {
  const not = (path) => pending.map((sql) => `:not([${path}=${JSON.stringify(sql)}])`).join('');
  return {
    'no-restricted-syntax': [
      'error',
      { selector: `Literal[value=${SQL_TEXT}]${not('value')}`, message: SQL_MESSAGE },
      { selector: `TemplateLiteral[quasis.0.value.raw=${SQL_TEXT}]`, message: SQL_MESSAGE },
      {
        selector: `CallExpression[callee.property.name=/^(run|all|get|each|exec|prepare)$/][callee.object.name=/^(db|database)$/]${not('arguments.0.value')}`,
        message: SQL_MESSAGE,
      },
      {
        selector: `CallExpression[callee.property.name=/^(run|all|get|each|exec|prepare)$/][callee.object.property.name=/^(db|database)$/]${not('arguments.0.value')}`,
        message: SQL_MESSAGE,
      },
    ],
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'vendor/**', 'release/**', 'test-output/**', 'test/workloads/**', 'test/oracle/GcOracle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  ...svelte.configs.recommended,
  {
    // Components and rune modules (.svelte.ts): svelte-eslint-parser, with typescript-eslint's
    // parser for the script, so the TypeScript rules above apply to it and the markup's uses of
    // the script's names count.
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
    rules: {
      // TypeScript (svelte-check) checks names; no-undef knows no DOM globals or types (typescript-eslint turns it off for .ts the same way).
      'no-undef': 'off',
      // Flags every plain Map/Set in a component or rune module; ours are deliberately not state: a
      // temporary built and spread inside one $derived (FindingsPanel's groups, ServerGcLanes'
      // kinds) or a cache no view reads reactively (findings' panel heights, the session view's
      // filters of other sessions). SvelteMap there would only add tracking.
      'svelte/prefer-svelte-reactivity': 'off',
      // {' · '} at the edge of an {#if} keeps its spaces (Svelte 5 trims whitespace at a block's
      // edges); the rule calls such a mustache useless.
      'svelte/no-useless-mustaches': 'off',
    },
  },
  ...FOLDERS.map((folder) => ({ files: [`src-main/${folder}/**/*.ts`], rules: layerRules(folder) })),
  { files: ['src-main/**/*.ts'], ignores: ['src-main/store/**'], rules: sqlRules() },
  { files: ['src-renderer/**/*.ts', 'src-renderer/**/*.svelte'], rules: { ...rendererImports, ...rendererGlobals } },
  { files: ['src-renderer/lib/api.ts'], rules: { 'no-restricted-properties': 'off' } },
  {
    files: ['scripts/**/*.mjs', 'bin/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
