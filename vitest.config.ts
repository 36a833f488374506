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
          include: ['lib/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/model-server/**/*.test.ts'],
          exclude: ['lib/providers/chunking-equivalence-*.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve: { alias },
        test: {
          // 200 random chunkings of every fixture in six formats take minutes; run by `npm run test:chunking`.
          name: 'chunking',
          include: ['lib/providers/chunking-equivalence-*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
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
          fileParallelism: false,
        },
      },
    ],
  },
});
