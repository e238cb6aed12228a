// Lint: typescript-eslint's recommended rules, plus the layering of DESIGN.md as rules — the
// pure core imports no Node I/O, sqlite3 or Electron, and no folder imports a folder above it
// (the table in src-main/README.md). The renderer is linted too: it reaches the backend only
// through shared/ and its one API module (src-renderer/lib/api.ts).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const io = ['node:*', 'fs', 'fs/*', 'net', 'child_process', 'sqlite3', 'electron', 'fflate', 'path', 'os', 'worker_threads'];

/**
 * What each src-main folder may import from the others (src-main/README.md). Anything else is a
 * higher layer (or a sibling the design keeps apart) and fails the lint.
 */
const LAYERS = {
  shared: [],
  trace: [],
  nettrace: ['trace'],
  clr: ['trace', 'nettrace', 'shared'],
  gc: ['trace', 'nettrace', 'clr', 'shared'],
  symbols: ['trace', 'nettrace', 'clr', 'shared'],
  diagnosis: ['trace', 'nettrace', 'clr', 'gc', 'shared'],
  compare: ['gc', 'shared'],
  report: ['trace', 'nettrace', 'clr', 'gc', 'diagnosis', 'compare', 'shared'],
  diagnostics: ['trace', 'nettrace', 'shared'],
  store: ['shared'],
  recording: ['trace', 'nettrace', 'clr', 'gc', 'symbols', 'diagnosis', 'report', 'shared', 'store', 'diagnostics'],
  watch: ['trace', 'nettrace', 'clr', 'gc', 'symbols', 'diagnosis', 'report', 'shared', 'store', 'diagnostics', 'recording'],
  service: ['trace', 'nettrace', 'clr', 'gc', 'symbols', 'diagnosis', 'compare', 'report', 'shared', 'store', 'diagnostics', 'recording', 'watch'],
  web: ['trace', 'nettrace', 'clr', 'gc', 'symbols', 'diagnosis', 'compare', 'report', 'shared', 'store', 'diagnostics', 'recording', 'watch', 'service'],
  cli: ['trace', 'nettrace', 'clr', 'gc', 'symbols', 'diagnosis', 'compare', 'report', 'shared', 'store', 'diagnostics', 'recording', 'watch', 'service', 'web'],
  app: ['trace', 'nettrace', 'clr', 'gc', 'symbols', 'diagnosis', 'compare', 'report', 'shared', 'store', 'diagnostics', 'recording', 'watch', 'service'],
  preload: ['shared'],
};
const PURE = new Set(['shared', 'trace', 'nettrace', 'clr', 'gc', 'symbols', 'diagnosis', 'compare', 'report']);
/** Folders that import nothing outside themselves but what LAYERS lists: not even a new sibling folder. */
const SELF_CONTAINED = new Set(['shared', 'trace', 'nettrace']);
const FOLDERS = Object.keys(LAYERS);

function layerRules(folder) {
  const patterns = FOLDERS.filter((f) => f !== folder && !LAYERS[folder].includes(f)).map((f) => ({
    group: [`../${f}`, `../${f}/*`],
    message: `${folder}/ may import only ${LAYERS[folder].length > 0 ? LAYERS[folder].map((x) => `${x}/`).join(', ') : 'itself'} (src-main/README.md): ${f}/ is not below it`,
  }));
  if (PURE.has(folder)) patterns.push(...io.map((group) => ({ group: [group], message: 'the pure core does no I/O (DESIGN.md "Rules of the house")' })));
  if (SELF_CONTAINED.has(folder)) {
    const allowed = [folder, ...LAYERS[folder]];
    patterns.push({ group: ['../*', ...allowed.map((f) => '!../' + f)], message: `${folder}/ imports nothing outside ${allowed.map((f) => `${f}/`).join(' and ')}` });
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
    { object: 'window', property: 'profiler', message: 'use src-renderer/lib/api.ts, the renderer\'s one API module' },
    { object: 'window', property: 'profilerFiles', message: 'use pathOfDroppedFile from src-renderer/lib/api.ts' },
  ],
};

/**
 * A .svelte component's <script> block, linted as TypeScript (no extra parser needed for the
 * import rules): everything before the block becomes blank lines, so line numbers match.
 */
const svelteScript = {
  meta: { name: 'svelte-script', version: '1' },
  preprocess(text) {
    const m = /<script\b[^>]*>([\s\S]*?)<\/script>/.exec(text);
    if (m === null) return [];
    const start = m.index + m[0].indexOf('>') + 1;
    const lines = text.slice(0, start).split('\n').length - 1;
    return [{ text: '\n'.repeat(lines) + ' '.repeat(start - text.lastIndexOf('\n', start - 1) - 1) + m[1], filename: 'script.ts' }];
  },
  postprocess: (messages) => messages.flat(),
  supportsAutofix: false,
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'release/**', 'test-output/**', 'test/workloads/**', 'test/oracle/GcOracle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  ...FOLDERS.map((folder) => ({ files: [`src-main/${folder}/**/*.ts`], rules: layerRules(folder) })),
  { files: ['src-renderer/**/*.ts'], rules: { ...rendererImports, ...rendererGlobals } },
  { files: ['src-renderer/lib/api.ts'], rules: { 'no-restricted-properties': 'off' } },
  { files: ['src-renderer/**/*.svelte'], processor: svelteScript },
  {
    // Only the import and global rules: the script's names are used by the markup the processor drops.
    files: ['src-renderer/**/*.svelte/*.ts'],
    rules: { '@typescript-eslint/no-unused-vars': 'off', 'prefer-const': 'off', ...rendererImports, ...rendererGlobals },
  },
  {
    files: ['scripts/**/*.mjs', 'bin/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
