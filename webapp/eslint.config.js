// Lint rules that keep the structure honest: one-way imports (shared → features → app), no imports
// between features, kebab-case file and folder names, no barrel files, no token in web storage.

import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import checkFile from 'eslint-plugin-check-file';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const SHARED = ['./src/components', './src/config', './src/hooks', './src/lib', './src/types', './src/utils'];

export default defineConfig(
  { ignores: ['dist', 'coverage', 'node_modules'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [
      js.configs.recommended,
      tseslint.configs.strictTypeChecked,
      importX.flatConfigs.recommended,
      importX.flatConfigs.typescript,
      reactHooks.configs.flat['recommended-latest'],
    ],
    languageOptions: {
      globals: globals.browser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.app.json' })],
    },
    plugins: { 'check-file': checkFile },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // A feature never imports another feature; the app composes them.
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
              message: 'Uma feature não importa outra: componha as duas em src/app.',
            })),
            { target: './src/features', from: './src/app', message: 'Features não importam src/app.' },
            {
              target: SHARED,
              from: ['./src/features', './src/app'],
              message: 'Código compartilhado não importa features nem src/app.',
            },
          ],
        },
      ],
      'import-x/no-cycle': 'error',
      'import-x/no-default-export': 'error',
      'import-x/avoid-barrel-files': 'error',
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', ['parent', 'sibling', 'index']],
          pathGroups: [{ pattern: '@/**', group: 'internal' }],
          'newlines-between': 'always',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      'check-file/filename-naming-convention': [
        'error',
        { 'src/**/*.{ts,tsx}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      // `__tests__` holds a route's integration tests, as in bulletproof-react.
      'check-file/folder-naming-convention': ['error', { 'src/**/!(__tests__)/': 'KEBAB_CASE' }],
      // The access token lives in Redux memory only; the refresh token is an httpOnly cookie.
      'no-restricted-globals': [
        'error',
        { name: 'localStorage', message: 'Nada de tokens (nem outros dados da conta) no localStorage.' },
        { name: 'sessionStorage', message: 'Nada de tokens (nem outros dados da conta) no sessionStorage.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'localStorage', message: 'Nada de tokens no localStorage.' },
        { object: 'window', property: 'sessionStorage', message: 'Nada de tokens no sessionStorage.' },
      ],
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // RTK Query spells "no argument" as `void` in a call's type arguments (`build.query<User, void>`),
      // which this rule cannot be told to accept.
      '@typescript-eslint/no-invalid-void-type': 'off',
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
  {
    // Tooling files run in Node and are not part of the app's import graph.
    files: ['vite.config.ts', 'build-id.ts', 'build-id.test.ts'],
    languageOptions: { globals: globals.node },
    rules: { 'import-x/no-default-export': 'off' },
  },
  {
    files: ['eslint.config.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
);
