// @ts-check
// ESLint: type-aware TypeScript rules plus the runtime zones of docs/architecture.md §2, so that code for one runtime
// (DOM, Node, Electron main, preload, Deno edge) never imports what another runtime cannot load.
import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import checkFile from 'eslint-plugin-check-file';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const node = ['node:*', 'fs', 'path', 'os', 'child_process', 'net', 'http', 'https', 'crypto', 'url', 'ws'];
const noNode = (/** @type {string[]} */ files, /** @type {string} */ message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: node, message }] }] },
});

/**
 * Which folder may import which, by resolved path (VS Code's layering rule, in eslint-plugin-import-x's
 * terms): each zone names a target folder and the folders it must not import from.
 * @type {{ target: string, from: string[], message: string }[]}
 */
const zones = [
  {
    target: './shared',
    from: ['./server', './agents', './renderer', './electron', './supabase'],
    message: 'shared/ imports no other zone.',
  },
  {
    target: './renderer',
    from: ['./server', './agents', './electron/main', './supabase'],
    message: 'renderer/ talks to the backend only through supabase-js.',
  },
  {
    target: './electron/preload',
    from: ['./server', './agents', './renderer', './electron/main'],
    message: 'preload may use electron and shared/ only.',
  },
  {
    target: './electron/main',
    from: ['./renderer', './server', './agents', './supabase'],
    message: 'the main process talks to the backend through supabase-js only.',
  },
  {
    target: './agents',
    from: ['./server', './renderer', './electron'],
    message: 'agents talk to the backend through supabase-js only.',
  },
  {
    target: './supabase/functions',
    from: ['./server', './agents', './renderer', './electron'],
    message: 'edge functions are deployed alone.',
  },
];

/**
 * The renderer's layers, as bulletproof-react lints them: a feature never imports another feature (what
 * takes from several composes them in renderer/src/app/), and imports flow shared → features → app.
 */
const features = readdirSync(new URL('./renderer/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const rendererLayers = [
  ...features.map((feature) => ({
    target: `./renderer/src/features/${feature}`,
    from: './renderer/src/features',
    except: [`./${feature}`],
    message: 'a feature imports no other feature: compose them in renderer/src/app/.',
  })),
  {
    target: [
      './renderer/src/features',
      './renderer/src/components',
      './renderer/src/hooks',
      './renderer/src/lib',
      './renderer/src/config',
    ],
    from: './renderer/src/app',
    message: 'app/ composes the rest; nothing imports it.',
  },
  {
    target: [
      './renderer/src/components',
      './renderer/src/hooks',
      './renderer/src/lib',
      './renderer/src/config',
    ],
    from: './renderer/src/features',
    message: 'shared renderer code imports no feature.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'coverage/**',
      'test-results/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
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
  {
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [...zones, ...rendererLayers],
        },
      ],
    },
  },
  // Import cycles are refused by dpdm (`npm run lint:cycles`, part of `npm run lint`): it counts type-only
  // imports too, which import-x/no-cycle leaves out, and takes seconds where the whole lint takes minutes.
  // File and folder names in kebab-case (shadcn/ui's and bulletproof-react's convention); `_shared` is the
  // Supabase CLI's name for the edge functions' common code. Middle extensions (.test, .e2e, .sql) are free.
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { '**/': 'KEBAB_CASE' }, { ignoreWords: ['_shared'] }],
    },
  },
  // Code for the browser, the sandboxed preload, shared/ and Deno must not load Node modules.
  noNode(['shared/**'], 'shared/ runs everywhere: no Node modules.'),
  noNode(['renderer/**'], 'renderer/ runs in the browser: no Node modules.'),
  noNode(['supabase/functions/**'], 'edge functions run on Deno: Web APIs only.'),
  {
    files: ['shared/**', 'renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: node, message: 'no Node modules here.' },
            { group: ['electron'], message: 'only electron/ may import Electron.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'tests/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/unbound-method': 'off' },
  },
  // A skip says why, in the one form the skip reporter tables and judges (tests/helpers/requirements.ts).
  {
    files: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test'].flatMap((object) =>
          ['skip', 'skipIf', 'runIf', 'todo', 'only'].map((property) => ({
            object,
            property,
            message: 'skip with requires(...) or skipNow(...) from tests/helpers/requirements.ts, saying why',
          })),
        ),
      ],
    },
  },
);
