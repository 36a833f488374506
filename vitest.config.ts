import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

const alias = { '@': resolve(import.meta.dirname) };

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: [
            'lib/**/*.test.ts',
            'scripts/**/*.test.ts',
            'targets/**/*.test.ts',
            'tests/model-server/**/*.test.ts',
            'tests/wiring/**/*.test.ts',
          ],
          environment: 'node',
          // A guard against a test that never ends, not a speed limit: the property tests take seconds when the two
          // cores are shared, and vitest's 5 s default failed them on a loaded machine.
          testTimeout: 30_000,
          // Worker threads start faster than forked processes: 55 s instead of 68 s for this project on 2 cores.
          pool: 'threads',
          // Files share a worker's module cache instead of importing zod, the AI SDK and the schemas again each:
          // 55 s instead of 140 s. A file that stubs a global or the environment puts it back in its afterAll.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          // 200 random 1-5 byte chunkings of every fixture in six formats, one file per format; part of `npm test`.
          name: 'chunking',
          include: ['tests/chunking/chunking-equivalence-*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          // Millions of tiny stream chunks allocate promises by the million: a larger young generation means far fewer scavenges.
          execArgv: ['--max-semi-space-size=64'],
          // The files are CPU-bound and the main process idles meanwhile; vitest's default on 2 cores is one worker.
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          // The agent loop over HTTP against a scripted endpoint that enforces a window, in every endpoint format:
          // hundreds of real requests, a minute of CPU, so part of `npm test` rather than of `npm run check`.
          name: 'window',
          include: ['tests/window/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Two files at once, each its own browser with its own profile and servers on free ports: most of a file's
          // time is spent waiting on its browser, so two share the 2 cores: 64 files in 818 s for 1,504 s of test time.
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          // Firefox ESR (Debian's firefox-esr) driven over Marionette: WebDriver BiDi cannot open moz-extension:// pages.
          name: 'firefox',
          include: ['tests/firefox/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // As in e2e: each file its own Firefox, profile and Marionette port.
          maxWorkers: 2,
        },
      },
    ],
  },
});
