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
/*
 * Which lib/ folder may import which, in the manner of Playwright's DEPS lists: a folder imports only the folders
 * its row names (its own files it always may). Every arrow runs down: the rows are listed from the lowest floor up
 * and the table has no circle (tests/wiring/lib-dependencies.test.ts checks both, and that every folder of lib/ has a
 * row). `npm run figures` prints the floors and any arrow that runs back up. Test files beside the code are not held
 * to it. An arrow that still runs up is an exception of one file, with its reason, until it is fixed.
 */
export const libDependencies = {
  markdown: [],
  protocol: [],
  'session-log': ['protocol'],
  'tool-family': ['protocol'],
  files: ['protocol'],
  jobs: ['protocol', 'session-log', 'tool-family'],
  notify: ['protocol'],
  'page-observation': ['protocol'],
  stage: ['protocol'],
  'authored-targets': ['files', 'protocol', 'session-log', 'tool-family'],
  storage: ['files', 'protocol', 'session-log'],
  manifest: ['protocol', 'storage'],
  usage: ['protocol', 'session-log', 'storage'],
  popup: ['manifest', 'protocol'],
  state: ['jobs', 'protocol', 'usage'],
  'view-artifacts': ['protocol', 'session-log', 'state', 'tool-family'],
  forms: ['protocol', 'view-artifacts'],
  mcp: ['protocol', 'storage', 'tool-family'],
  settings: ['protocol', 'storage', 'tool-family'],
  context: ['files', 'protocol', 'settings'],
  targets: ['authored-targets', 'manifest', 'protocol', 'session-log', 'storage', 'tool-family'],
  'page-tools': ['files', 'page-observation', 'protocol', 'settings', 'tool-family'],
  tools: [
    'authored-targets',
    'forms',
    'jobs',
    'mcp',
    'page-tools',
    'protocol',
    'targets',
    'tool-family',
    'view-artifacts',
  ],
  providers: ['protocol', 'settings'],
  'human-loop': ['forms', 'protocol', 'session-log', 'tool-family', 'tools'],
  agent: ['context', 'files', 'mcp', 'page-tools', 'protocol', 'providers', 'settings', 'state', 'tools', 'usage'],
  panel: ['agent', 'files', 'page-tools', 'protocol', 'state', 'view-artifacts'],
  search: ['page-tools', 'protocol'],
  runtime: [
    'authored-targets',
    'files',
    'forms',
    'human-loop',
    'jobs',
    'manifest',
    'mcp',
    'notify',
    'page-tools',
    'protocol',
    'search',
    'session-log',
    'settings',
    'state',
    'storage',
    'targets',
    'tool-family',
    'tools',
    'usage',
    'view-artifacts',
  ],
};

/** Folders the table already places that do not exist yet. */
export const libFoldersToCome = [];

const snapshotsReduce =
  'a snapshot is the reduced state: the log kernel runs the reducer of lib/state/, which reads the job limits and job state of lib/jobs/, a feature on the kernel';
const registryLookup =
  'the approval gate, its policy form and the manual-tool path look a tool up in the registry (lib/tools/), which lists this folder’s family: the lookup moves into the dispatch next';

/** Arrows that run back up, each allowed to one file only, with why it is not fixed yet. */
export const libDependencyExceptions = [
  { file: 'lib/settings/approval-policy-store.ts', imports: 'tools', reason: registryLookup },
  { file: 'lib/page-tools/page-approval-check.ts', imports: 'tools', reason: registryLookup },
  { file: 'lib/targets/approval-check.ts', imports: 'tools', reason: registryLookup },
  { file: 'lib/targets/target-tools.ts', imports: 'tools', reason: registryLookup },
  { file: 'lib/session-log/session-log.ts', imports: 'state', reason: snapshotsReduce },
  { file: 'lib/session-log/snapshot-advance.ts', imports: 'state', reason: snapshotsReduce },
  {
    file: 'lib/targets/stage-actions.ts',
    imports: 'runtime',
    reason:
      "the stage's request handlers are typed by the runtime's handler dependencies (RuntimeHandlerDependencies) and a rewind's stage by the runtime's RewindStage",
  },
  {
    file: 'lib/targets/stage-target-hooks.ts',
    imports: 'runtime',
    reason: "the stage's hooks are typed by the Runtime they call back (recordNotifications, the session lock)",
  },
  {
    file: 'lib/files/file-limits.ts',
    imports: 'settings',
    reason: 'the limits differ per endpoint kind, and the endpoint schema (EndpointSettings) is a settings type',
  },
];

function folderPattern(folder, allowed) {
  const forbidden = Object.keys(libDependencies).filter((other) => other !== folder && !allowed.includes(other));
  return {
    regex: `^(@/lib/|\\.\\./)(${forbidden.join('|')})(/|$)`,
    message: `lib/${folder}/ imports ${allowed.length > 0 ? `from lib/ only ${allowed.join(', ')}` : 'nothing else from lib/'}: libDependencies in eslint.config.js says which folder may import which, each only downward.`,
  };
}

const crossing = 'An entrypoint imports no other entrypoint: move what both need to entrypoints/shared/ or lib/.';

/**
 * lib/storage/ is the one module that touches IndexedDB; tests beside the code may use the test support in tests/.
 * Each folder's own block adds the folders it may not import (libDependencies).
 */
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
  const folderBlock = (folder, files, ignores, allowed) => ({
    files,
    ignores,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...patterns({ storage: folder === 'storage', test: false }), folderPattern(folder, allowed)] },
      ],
    },
  });
  const folders = Object.keys(libDependencies).filter((folder) => !libFoldersToCome.includes(folder));
  const exceptionFiles = [...new Set(libDependencyExceptions.map((exception) => exception.file))];
  return [
    block(['lib/**/*.ts'], ['lib/**/*.test.ts', 'lib/storage/**'], { storage: false, test: false }),
    block(['lib/**/*.test.ts'], ['lib/storage/**'], { storage: false, test: true }),
    block(['lib/storage/**/*.ts'], ['lib/storage/**/*.test.ts'], { storage: true, test: false }),
    block(['lib/storage/**/*.test.ts'], [], { storage: true, test: true }),
    ...folders.map((folder) =>
      folderBlock(folder, [`lib/${folder}/**/*.ts`], ['lib/**/*.test.ts'], libDependencies[folder]),
    ),
    ...exceptionFiles.map((file) => {
      const folder = file.split('/')[1];
      const excepted = libDependencyExceptions.filter((exception) => exception.file === file);
      return folderBlock(folder, [file], [], [...libDependencies[folder], ...excepted.map((item) => item.imports)]);
    }),
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
    files: ['targets/**/*.js', 'tests/targets/**/*.js', 'tests/fixtures/**/*.js', 'scripts/mcp-serve/*.js'],
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
