import type { Page } from 'puppeteer-core';
import { demoModelId } from './demo-model-responder';

/** The endpoint profile `npm start` writes when none is configured: the offline demo, flagged so the panel says so. */
export function demoEndpointProfile(baseUrl: string) {
  return {
    id: 'offline-demo',
    kind: 'openai-compatible',
    label: 'Offline demo',
    baseUrl,
    model: demoModelId,
    apiKey: '',
    scripted: true,
  } as const;
}

/**
 * On an extension page: points the extension at the demo model unless an endpoint is configured already.
 * Resolves true when it wrote the demo profile.
 */
export function configureDemoEndpoint(page: Page, baseUrl: string): Promise<boolean> {
  return page.evaluate(async (demo) => {
    const storage = (
      globalThis as unknown as {
        chrome: {
          storage: {
            local: { get(keys: string[]): Promise<Record<string, unknown>>; set(value: unknown): Promise<void> };
          };
        };
      }
    ).chrome.storage.local;
    // `endpoint` is the single endpoint of earlier versions; the extension folds it into `endpointProfiles`.
    const stored = await storage.get(['endpoint', 'endpointProfiles']);
    const profiles = (stored.endpointProfiles as { profiles?: unknown[] } | undefined)?.profiles ?? [];
    if (stored.endpoint || profiles.length > 0) return false;
    await storage.set({ endpointProfiles: { activeId: demo.id, profiles: [demo] } });
    return true;
  }, demoEndpointProfile(baseUrl));
}
