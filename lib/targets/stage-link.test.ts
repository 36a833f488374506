import { describe, expect, it } from 'vitest';
import type { StageCommandMessage } from '../protocol/runtime-message';
import { targetManifestSchema } from '../protocol/target-manifest';
import { StageLink, type LinkPort } from './stage-link';

const manifest = targetManifestSchema.parse({
  id: 'gauge',
  title: 'Gauge',
  description: 'A gauge.',
  entry: 'index.html',
  params: { display: { level: { type: 'integer', min: 0, max: 100, value: 10 } } },
});
const entry = { manifest, entryPath: 'targets/gauge/index.html' };

/** A stage tab that greets at once and answers every command with an empty state, after `before` reports. */
function fakeStage() {
  let listener: (message: unknown) => void = () => {};
  const before: unknown[] = [];
  const port: LinkPort = {
    postMessage(message: StageCommandMessage) {
      if (message.type === 'stage/retire' || message.type === 'stage/app-tool-result') return;
      queueMicrotask(() => {
        for (const report of before.splice(0)) listener(report);
        listener({ type: 'stage/state', jobId: message.jobId, state: {} });
      });
    },
    onMessage: (added) => {
      listener = added;
    },
    onDisconnect: () => {},
  };
  let counter = 0;
  const link = new StageLink({
    openStageTab: async () => {},
    stageIsOpen: async () => true,
    entryUrl: () => 'chrome-extension://x/targets/gauge/index.html',
    newId: () => `job${++counter}`,
    connectTimeoutMs: 1000,
    jobTimeoutMs: 1000,
    reconnectGraceMs: 1000,
    stageGoneAfterMs: 1000,
  });
  link.attach(port);
  listener({ type: 'stage/hello', recent: [], received: [], startedAt: 1 });
  return { link, before };
}

describe('StageLink target errors', () => {
  it('keeps what the active target reported on its own for the next result, and drops another target’s', async () => {
    const { link, before } = fakeStage();
    await link.open(entry);
    before.push(
      { type: 'stage/target-error', targetId: 'gauge', message: 'TypeError: draw failed' },
      { type: 'stage/target-error', targetId: 'other', message: 'not the active target' },
    );
    await link.send('gauge', { type: 'read' });
    expect(link.takeTargetErrors('gauge')).toEqual(['TypeError: draw failed']);
    expect(link.takeTargetErrors('gauge')).toEqual([]);
  });

  it('forgets the errors of a target when a target is opened, and keeps at most twenty', async () => {
    const { link, before } = fakeStage();
    await link.open(entry);
    for (let index = 0; index < 25; index++)
      before.push({ type: 'stage/target-error', targetId: 'gauge', message: `error ${index}` });
    await link.send('gauge', { type: 'read' });
    const kept = link.takeTargetErrors('gauge');
    expect(kept).toHaveLength(20);
    expect(kept.at(-1)).toBe('error 24');
    before.push({ type: 'stage/target-error', targetId: 'gauge', message: 'before reopening' });
    await link.send('gauge', { type: 'read' });
    await link.open(entry);
    expect(link.takeTargetErrors('gauge')).toEqual([]);
  });
});

describe('StageLink preview of an older version', () => {
  it('refuses commands while an older version is shown, keeps its values out, and drives the target once reopened', async () => {
    let listener: (message: unknown) => void = () => {};
    const posted: StageCommandMessage[] = [];
    const states: unknown[] = [];
    const port: LinkPort = {
      postMessage(message: StageCommandMessage) {
        posted.push(message);
        if (message.type !== 'stage/retire' && message.type !== 'stage/app-tool-result')
          queueMicrotask(() => listener({ type: 'stage/state', jobId: message.jobId, state: { level: 3 } }));
      },
      onMessage: (added) => {
        listener = added;
      },
      onDisconnect: () => {},
    };
    let counter = 0;
    const link = new StageLink({
      openStageTab: async () => {},
      stageIsOpen: async () => true,
      entryUrl: () => 'chrome-extension://x/artifact-host.html',
      onState: (targetId, state) => states.push({ targetId, state }),
      newId: () => `job${++counter}`,
      connectTimeoutMs: 1000,
      jobTimeoutMs: 1000,
      reconnectGraceMs: 1000,
      stageGoneAfterMs: 1000,
    });
    link.attach(port);
    listener({ type: 'stage/hello', recent: [], received: [], startedAt: 1 });
    const artifact = { artifactId: 'gauge', version: 1, manifest, html: '', script: '', granted: [] };
    await link.preview(entry, artifact);
    expect(posted.at(-1)).toMatchObject({ type: 'stage/open', preview: true, artifact: { version: 1 } });
    expect(await link.activeTargetId()).toBe('gauge');
    await expect(link.send('gauge', { type: 'read' })).rejects.toThrow(
      /shows version 1 of "gauge" \(superseded\).*openTarget\("gauge"\)/,
    );
    listener({ type: 'stage/target-state', targetId: 'gauge', state: { level: 99 } });
    expect(states).toEqual([]);
    expect(posted.filter((message) => message.type === 'stage/send')).toEqual([]);

    await link.open(entry);
    expect(await link.send('gauge', { type: 'read' })).toEqual({ level: 3 });
    expect(states.at(-1)).toEqual({ targetId: 'gauge', state: { level: 3 } });
  });
});
