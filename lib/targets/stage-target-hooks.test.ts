import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { CatalogEntry } from '../protocol/target-catalog';
import { targetManifestSchema } from '../protocol/target-manifest';
import { stageTargetHooks } from './stage-target-hooks';

const manifest = targetManifestSchema.parse(
  JSON.parse(readFileSync(new URL('../../targets/particles/manifest.json', import.meta.url), 'utf8')),
);
const builtIn: CatalogEntry = { manifest, entryPath: 'targets/particles/index.html' };
const registered: CatalogEntry = { manifest, entryUrl: 'http://localhost:5173/' };
const authored: CatalogEntry = {
  manifest: { ...manifest, id: 'made-here', title: 'Made here' },
  artifact: { sessionId: 'session-2', artifactId: 'made-here', version: 2, versions: [], requested: [], granted: [] },
};
const content = {
  artifactId: 'made-here',
  version: 2,
  manifest: authored.manifest,
  files: { html: '<p>hi</p>', script: 'void 0' },
  granted: [],
};

function setup() {
  const runtime = {
    targetArtifacts: { load: vi.fn(async () => content) },
    recordNotifications: vi.fn(async () => undefined),
  };
  const hooks = stageTargetHooks({
    extensionUrl: (path) => `chrome-extension://splitbrain/${path}`,
    runtime: () => runtime,
    newId: () => 'notice-1',
    now: () => 5_000,
  });
  return { hooks, runtime };
}

describe('stageTargetHooks', () => {
  it('loads a built-in target from the extension, a registered one from its address, an authored one in the host page', () => {
    const { hooks } = setup();
    expect(hooks.entryUrl(builtIn)).toBe('chrome-extension://splitbrain/targets/particles/index.html');
    expect(hooks.entryUrl(registered)).toBe('http://localhost:5173/');
    expect(hooks.entryUrl(authored)).toBe('chrome-extension://splitbrain/artifact-host.html');
  });

  it('hands the stage an authored target’s files and refuses any other target', async () => {
    const { hooks, runtime } = setup();
    expect(await hooks.artifactContent(authored)).toEqual({
      artifactId: 'made-here',
      version: 2,
      manifest: authored.manifest,
      html: '<p>hi</p>',
      script: 'void 0',
      granted: [],
    });
    expect(runtime.targetArtifacts.load).toHaveBeenCalledWith('session-2', 'made-here');
    await expect(hooks.artifactContent(builtIn)).rejects.toThrow('particles is not an authored target.');
  });

  it('records a blocked request of an authored target in its conversation, and ignores any other target’s', () => {
    const { hooks, runtime } = setup();
    hooks.onCspViolation(builtIn, { directive: 'connect-src', blockedUrl: 'https://example.org/' });
    expect(runtime.recordNotifications).not.toHaveBeenCalled();
    hooks.onCspViolation(authored, { directive: 'connect-src', blockedUrl: `https://example.org/${'x'.repeat(3000)}` });
    expect(runtime.recordNotifications).toHaveBeenCalledWith('session-2', [
      {
        type: 'notify/security-warning',
        sessionId: 'session-2',
        notificationId: 'notice-1',
        time: 5_000,
        data: {
          warning: 'blocked-request',
          targetId: 'made-here',
          url: `https://example.org/${'x'.repeat(3000)}`.slice(0, 2000),
          message: '"Made here" tried something its sandbox does not allow (connect-src); it was blocked.',
        },
      },
    ]);
  });
});
