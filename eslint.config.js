// @ts-check
// ESLint: type-aware TypeScript rules plus the runtime zones of STYLE.md, so that code for one runtime
// (DOM, Node, Electron main, preload, Deno edge) never imports what another runtime cannot load.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const node = ['node:*', 'fs', 'path', 'os', 'child_process', 'net', 'http', 'https', 'crypto', 'url'];
const zone = (/** @type {string[]} */ files, /** @type {{group: string[], message: string}[]} */ patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'coverage/**', 'test-results/**', '**/*.js', '**/*.cjs', '**/*.mjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      'no-console': 'off',
    },
  },
  // shared/ is plain TypeScript: no Node, no DOM-only modules, no Electron, no other zone.
  zone(['shared/**'], [
    { group: node, message: 'shared/ runs everywhere: no Node modules.' },
    { group: ['electron', 'react', 'react-dom'], message: 'shared/ has no runtime dependencies on Electron or React.' },
    { group: ['**/server/**', '**/agents/**', '**/renderer/**', '**/electron/**'], message: 'shared/ imports no other zone.' },
  ]),
  // renderer/ is DOM code: the web build must not pull in Node or Electron.
  zone(['renderer/**'], [
    { group: node, message: 'renderer/ runs in the browser: no Node modules.' },
    { group: ['electron'], message: 'renderer/ reaches the desktop only through window.vigil (the preload bridge).' },
    { group: ['**/server/**', '**/agents/**', '**/electron/**', '**/supabase/**'], message: 'renderer/ talks to the backend only through supabase-js.' },
  ]),
  zone(['electron/preload/**'], [
    { group: ['**/server/**', '**/agents/**', '**/renderer/**', '**/electron/main/**'], message: 'preload may use electron and shared/ only.' },
  ]),
  zone(['electron/main/**'], [
    { group: ['**/renderer/**', '**/server/**', '**/agents/**'], message: 'the main process talks to the backend through supabase-js only.' },
  ]),
  zone(['agents/**'], [
    { group: ['**/server/**', '**/renderer/**', '**/electron/**'], message: 'agents talk to the backend through supabase-js only.' },
  ]),
  zone(['supabase/functions/**'], [
    { group: node, message: 'edge functions run on Deno: Web APIs only.' },
    { group: ['**/server/**', '**/agents/**', '**/renderer/**', '**/electron/**'], message: 'edge functions are deployed alone.' },
  ]),
  {
    files: ['**/*.test.ts', 'tests/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/unbound-method': 'off' },
  },
);
