import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { launchExtension, type ExtensionSession } from './extension-harness';
import { manualTool, readInsideTarget, waitUntilReady } from './manual-tool';

interface StorageGlobal {
  chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
}

/** The values saved for a target in storage.local, as the background writes them (coalesced). */
function storedValues(page: Page, targetId: string): Promise<Record<string, unknown> | undefined> {
  return page.evaluate(
    async (key) =>
      (await (globalThis as unknown as StorageGlobal).chrome.storage.local.get(key))[key] as
        Record<string, unknown> | undefined,
    `targetValues:${targetId}`,
  );
}

describe('per-target values in Chromium', () => {
  let session: ExtensionSession;
  let control: Page;

  beforeAll(async () => {
    session = await launchExtension();
    control = await session.browser.newPage();
    await control.goto(`chrome-extension://${session.extensionId}/options.html`);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('restores the last value when the target is reopened right after the change', async () => {
    expect((await manualTool(control, 'openTarget', { targetId: 'particles' })).ok).toBe(true);
    await waitUntilReady(await session.targetFrame('particles'));
    expect((await manualTool(control, 'setParameter', { param: 'speed', value: 23 })).applied).toEqual({ speed: 23 });
    expect((await manualTool(control, 'openTarget', { targetId: 'chart' })).ok).toBe(true);
    expect((await manualTool(control, 'openTarget', { targetId: 'particles' })).ok).toBe(true);
    const frame = await session.targetFrame('particles');
    await waitUntilReady(frame);
    await frame.waitForFunction(
      () =>
        (
          window as unknown as { SplitbrainBridge: { currentState(): { speed?: number } | null } }
        ).SplitbrainBridge.currentState()?.speed === 23,
      { polling: 100, timeout: 10_000 },
    );
    expect((await readInsideTarget(frame)).state.speed).toBe(23);
  });

  it('keeps the last of a burst of changes across the stage tab closing and the worker restarting', async () => {
    for (let speed = 31; speed <= 40; speed++)
      expect((await manualTool(control, 'setParameter', { param: 'speed', value: speed })).applied).toEqual({ speed });
    await (await session.stagePage()).close();
    await control.waitForFunction(
      async (key) =>
        (
          (await (globalThis as unknown as StorageGlobal).chrome.storage.local.get(key))[key] as
            { speed?: number } | undefined
        )?.speed === 40,
      { polling: 100, timeout: 10_000 },
      'targetValues:particles',
    );
    await session.stopServiceWorker();
    expect((await manualTool(control, 'openTarget', { targetId: 'particles' })).ok).toBe(true);
    const frame = await session.targetFrame('particles');
    await waitUntilReady(frame);
    await frame.waitForFunction(
      () =>
        (
          window as unknown as { SplitbrainBridge: { currentState(): { speed?: number } | null } }
        ).SplitbrainBridge.currentState()?.speed === 40,
      { polling: 100, timeout: 10_000 },
    );
    expect((await readInsideTarget(frame)).state.speed).toBe(40);
    expect((await storedValues(control, 'particles'))?.speed).toBe(40);
  });
});
