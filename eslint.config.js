import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';

/*
 * The three rings (README, "How it is built"): `lib/` is pure TypeScript, `entrypoints/` wire platform APIs to it,
 * `components/` render and dispatch. `no-restricted-imports` takes one option list per file, so each block below
 * lists every pattern its files are held to.
 */
const platformModules = ['react', 'react-dom', 'webextension-polyfill', 'wxt', 'dexie'].map((name) => ({
  regex: `^${name}(/|$)`,
  message: 'lib/ is pure TypeScript: only entrypoints/ and components/ use the browser, React or WXT.',
}));
const wxtModules = {
  regex: '^@wxt-dev/',
  message: 'lib/ is pure TypeScript: only entrypoints/ and components/ use the browser, React or WXT.',
};
const noTests = {
  regex: '^(@/|(\\.\\./)+)tests(/|$)',
  message: 'Product code imports nothing from tests/.',
};
const noOuterRings = {
  regex: '^(@/|(\\.\\./)+)(components|entrypoints)(/|$)',
  message: 'lib/ is the inner ring: it imports nothing from components/ or entrypoints/.',
};
const noEntrypoints = {
  regex: '^(@/|(\\.\\./)+)entrypoints(/|$)',
  message: 'components/ only render and dispatch: the entrypoint passes in what they need.',
};
const noExtensionApi = {
  regex: '^(webextension-polyfill|wxt/browser|@wxt-dev/browser)$',
  message: 'components/ only render and dispatch: extension APIs are called by the entrypoint.',
};
const noExtensionGlobals = [
  { name: 'chrome', message: 'Extension APIs belong to entrypoints/.' },
  { name: 'browser', message: 'Extension APIs belong to entrypoints/.' },
];
const crossing = 'An entrypoint imports no other entrypoint: move what both need to entrypoints/shared/ or lib/.';

/** lib/storage/ is the one module that touches IndexedDB; tests beside the code may use the test support in tests/. */
function libBoundaries() {
  const patterns = ({ storage, test }) => [
    ...platformModules.filter((pattern) => !(storage && pattern.regex === '^dexie(/|$)')),
    wxtModules,
    noOuterRings,
    ...(test ? [] : [noTests]),
  ];
  const block = (files, ignores, options) => ({
    files,
    ignores,
    rules: {
      'no-restricted-imports': ['error', { patterns: patterns(options) }],
      'no-restricted-globals': ['error', ...noExtensionGlobals],
    },
  });
  return [
    block(['lib/**/*.ts'], ['lib/**/*.test.ts', 'lib/storage/**'], { storage: false, test: false }),
    block(['lib/**/*.test.ts'], ['lib/storage/**'], { storage: false, test: true }),
    block(['lib/storage/**/*.ts'], ['lib/storage/**/*.test.ts'], { storage: true, test: false }),
    block(['lib/storage/**/*.test.ts'], [], { storage: true, test: true }),
  ];
}

/** One block per entrypoint: it may import its own files, `entrypoints/shared/`, lib/ and components/. */
function entrypointBoundaries() {
  return readdirSync('entrypoints', { withFileTypes: true })
    .filter((entry) => entry.name !== 'shared')
    .map((entry) => {
      const name = entry.isDirectory() ? entry.name : entry.name.replace(/\.tsx?$/, '');
      const alias = { regex: `^@/entrypoints/(?!shared/|${name}(/|$))`, message: crossing };
      if (!entry.isDirectory())
        return {
          files: [`entrypoints/${entry.name}`],
          patterns: [alias, { regex: '^\\./(?!shared/)', message: crossing }],
        };
      return [
        {
          files: [`entrypoints/${name}/*.{ts,tsx}`],
          patterns: [alias, { regex: '^\\.\\./(?!shared/)', message: crossing }],
        },
        {
          files: [`entrypoints/${name}/*/**/*.{ts,tsx}`],
          patterns: [alias, { regex: '^\\.\\./\\.\\./(?!shared/)', message: crossing }],
        },
      ];
    })
    .flat()
    .map(({ files, patterns }) => ({
      files,
      rules: { 'no-restricted-imports': ['error', { patterns: [...patterns, noTests] }] },
    }));
}

export default tseslint.config(
  { ignores: ['.output/**', '.wxt/**', 'node_modules/**', 'docs/**', '.scratch/**', '.splitbrain-profile/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['targets/**/*.js', 'tests/targets/**/*.js', 'tests/fixtures/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
  ...libBoundaries(),
  {
    files: ['components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noEntrypoints, noExtensionApi, noTests] }],
      'no-restricted-globals': ['error', ...noExtensionGlobals],
    },
  },
  ...entrypointBoundaries(),
  {
    // The scripted model server is the demo model of `npm start`, a product part: fixtures stay in tests/.
    files: ['scripts/**/*.ts'],
    ignores: ['scripts/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noTests] }] },
  },
  {
    files: ['components/**/*.{ts,tsx}', 'entrypoints/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // A text-like field listens to `input`: React's `onChange` drops the `input` event of a value set through the
    // `value` property (dictation, text expanders, password managers, Puppeteer's fill of 100 characters or more).
    // Checkboxes, radios, selects and file inputs keep `onChange` (React reads their click or native `change`).
    files: ['components/**/*.tsx', 'entrypoints/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'JSXOpeningElement[name.name=/^(input|textarea)$/]:not(:has(JSXAttribute[name.name="type"][value.value=/^(checkbox|radio|file)$/])) > JSXAttribute[name.name="onChange"]',
          message:
            'Use onInput on a text, number, range or color field (and textarea): React drops the input event of a value a tool set through the value property.',
        },
      ],
    },
  },
  prettier,
);
