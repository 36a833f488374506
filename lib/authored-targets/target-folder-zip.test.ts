import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { discoverTargets } from '../../scripts/discover-targets';
import { exportedCanvasTarget } from '../../tests/support/authored-target-export';

describe('Save as target folder', () => {
  it('exports a folder with manifest.json that the build discovers as a target', async () => {
    const { root, targetId, files } = await exportedCanvasTarget();
    try {
      expect(files).toEqual([
        `${targetId}/app.js`,
        `${targetId}/index.html`,
        `${targetId}/manifest.json`,
        `${targetId}/style.css`,
      ]);
      const [discovered] = discoverTargets(root);
      expect(discovered?.entry).toMatchObject({
        entryPath: `targets/${targetId}/index.html`,
        manifest: { id: targetId, title: 'Orbit sketch' },
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
