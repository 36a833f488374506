import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
/** Generated, installed or local-only: a fresh checkout does not have them. */
const NOT_COPIED = new Set(['node_modules', '.output', '.git', '.wxt', '.splitbrain-profile', 'tmp']);

/** Copies the working tree to a temporary folder, sharing node_modules through a symlink. */
export function copyProject(): string {
  const copy = mkdtempSync(join(tmpdir(), 'splitbrain-copy-'));
  cpSync(PROJECT_ROOT, copy, {
    recursive: true,
    filter: (source) => {
      const path = relative(PROJECT_ROOT, source);
      return path === '' || !NOT_COPIED.has(path.split(/[\\/]/)[0]);
    },
  });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

/** Removes the copy; the node_modules symlink is unlinked, never followed. */
export function removeCopy(copy: string): void {
  rmSync(copy, { recursive: true, force: true });
}

export interface BuildResult {
  exitCode: number;
  output: string;
}

/**
 * `wxt build` in `folder` (the production build: no test-only targets, default output folder).
 * Runs the project's own wxt binary, which is what `npx wxt build` resolves to, without any chance of a download.
 */
export function buildProject(folder: string): Promise<BuildResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.SPLITBRAIN_EXTRA_TARGETS;
  delete env.SPLITBRAIN_OUT_DIR;
  return new Promise((done) => {
    execFile(
      join(folder, 'node_modules/.bin/wxt'),
      ['build'],
      { cwd: folder, env, maxBuffer: 16 * 1024 * 1024, timeout: 180_000 },
      (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ exitCode, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

/** `npm run new:target <id>` in `folder`, as a contributor would run it; returns what it printed. */
export function scaffoldTarget(folder: string, id: string): string {
  return execFileSync('npm', ['run', '--silent', 'new:target', '--', id], { cwd: folder, encoding: 'utf8' });
}
