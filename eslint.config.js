import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['.output/**', '.wxt/**', 'node_modules/**', 'docs/**', '.scratch/**', '.splitbrain-profile/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node, defineBackground: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['targets/**/*.js', 'tests/targets/**/*.js', 'tests/fixtures/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['react', 'react-dom', 'webextension-polyfill', 'wxt/browser'] }],
    },
  },
  prettier,
);
