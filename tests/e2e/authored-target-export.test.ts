import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportedCanvasTarget } from '../support/authored-target-export';
import { PROJECT_ROOT } from './project-copy';

/** No browser: the project's own build, with the exported folder as the extra targets folder. */
describe('an exported authored target drops into targets/ and builds', () => {
  it('builds with the exported folder and lists the target in the catalog', async () => {
    const { root, targetId } = await exportedCanvasTarget();
    const out = join(root, 'build');
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NO_COLOR: '1',
        SPLITBRAIN_EXTRA_TARGETS: root,
        SPLITBRAIN_OUT_DIR: out,
      };
      const result = await new Promise<{ exitCode: number; output: string }>((done) =>
        execFile(
          join(PROJECT_ROOT, 'node_modules/.bin/wxt'),
          ['build'],
          { cwd: PROJECT_ROOT, env, maxBuffer: 16 * 1024 * 1024, timeout: 180_000 },
          (error, stdout, stderr) =>
            done({
              exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
              output: `${stdout}\n${stderr}`,
            }),
        ),
      );
      expect(result.exitCode, result.output).toBe(0);
      const build = join(out, 'chrome-mv3');
      expect(existsSync(join(build, `targets/${targetId}/index.html`))).toBe(true);
      expect(existsSync(join(build, `targets/${targetId}/manifest.js`))).toBe(true);
      const catalog = readFileSync(join(build, 'targets/catalog.json'), 'utf8');
      expect(catalog).toContain(`"id": "${targetId}"`);
      expect(readFileSync(join(build, 'manifest.json'), 'utf8')).toContain(`targets/${targetId}/index.html`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 200_000);
});
