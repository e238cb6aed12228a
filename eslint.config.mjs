// Lint: typescript-eslint's recommended rules, plus the layering rule of DESIGN.md — the pure
// core (nettrace/, clr/, gc/, shared/) imports no Node I/O, sqlite3 or Electron.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const io = ['node:*', 'fs', 'fs/*', 'net', 'child_process', 'sqlite3', 'electron', 'fflate', 'path', 'os', 'worker_threads'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'release/**', 'test-output/**', 'src-renderer/**', 'test/workloads/**', 'test/oracle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src-main/nettrace/**/*.ts', 'src-main/clr/**/*.ts', 'src-main/gc/**/*.ts', 'src-main/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: io.map((group) => ({ group: [group], message: 'the pure core does no I/O (DESIGN.md "Rules of the house")' })) }],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'bin/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
