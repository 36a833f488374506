import type { Frame } from 'puppeteer-core';
import type { ExtensionSession } from './extension-harness';

/** The stage's frame of the authored target, once its script has connected the bridge (and shows `marker` if given). */
export async function artifactFrame(session: ExtensionSession, marker?: string): Promise<Frame> {
  const stage = await session.stagePage();
  const handle = await stage.waitForFunction(
    () => document.querySelector('#frame-host iframe')?.getAttribute('src')?.includes('/artifact-host.html') ?? false,
    { timeout: 20_000, polling: 50 },
  );
  await handle.dispose();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const frame = stage.frames().find((candidate) => candidate.url().includes('/artifact-host.html'));
    const ready = await frame
      ?.evaluate(
        (wanted) =>
          'SplitbrainBridge' in window &&
          (window as unknown as { SplitbrainBridge: { isReady(): boolean } }).SplitbrainBridge.isReady() &&
          (!wanted || (document.body.textContent ?? '').includes(wanted)),
        marker ?? '',
      )
      .catch(() => false);
    if (frame && ready) return frame;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The authored target's frame did not become ready${marker ? ` showing "${marker}"` : ''}.`);
}

/** The values the authored target's own script holds, read through its bridge. */
export function stateInside(frame: Frame): Promise<Record<string, unknown>> {
  return frame.evaluate(() =>
    (
      window as unknown as { SplitbrainBridge: { currentState(): Record<string, unknown> } }
    ).SplitbrainBridge.currentState(),
  );
}
