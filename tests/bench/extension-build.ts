import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/**
 * The extension a benchmark measures: the test build configuration (built-in targets plus tests/targets),
 * built fresh into .output/bench so the figures are of the code in the tree, without touching the e2e build.
 * `memoryLog` builds the same code with its event log kept in memory instead of IndexedDB (.output/bench-memory-log),
 * to show what the durable writes cost. SPLITBRAIN_BENCH_EXTENSION=<folder> measures an existing unpacked build instead
 * (of the durable kind).
 */
export async function benchExtensionBuild(options: { memoryLog?: boolean } = {}): Promise<string> {
  const existing = process.env.SPLITBRAIN_BENCH_EXTENSION;
  if (existing && !options.memoryLog) return resolve(existing);
  const outDir = join(root, options.memoryLog ? '.output/bench-memory-log' : '.output/bench');
  const env = {
    ...process.env,
    SPLITBRAIN_EXTRA_TARGETS: 'tests/targets',
    SPLITBRAIN_OUT_DIR: outDir,
    NO_COLOR: '1',
    WXT_MEMORY_EVENT_LOG: options.memoryLog ? '1' : '',
  };
  await new Promise<void>((done, fail) => {
    execFile(
      join(root, 'node_modules/.bin/wxt'),
      ['build'],
      { cwd: root, env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? fail(new Error(`The benchmark build failed:\n${stdout}\n${stderr}`)) : done(),
    );
  });
  return join(outDir, 'chrome-mv3');
}
