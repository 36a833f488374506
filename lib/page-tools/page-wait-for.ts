import type { PageTarget, PageWaitFor } from '../protocol/page-wire';
import type { pageWaitForSchema } from './page-tool-inputs';
import type { z } from 'zod';

type ToolWaitFor = z.infer<typeof pageWaitForSchema>;

const DEFAULT_TIMEOUT_MS = 5_000;

/** The model's `waitFor` as the page agent takes it; a reason when it names no element where it needs one. */
export function wireWaitFor(waitFor: ToolWaitFor): { ok: true; waitFor: PageWaitFor } | { ok: false; reason: string } {
  const timeoutMs = Math.max(1, waitFor.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const locator = waitLocator(waitFor);
  switch (waitFor.condition) {
    case 'url-matches': {
      if (!waitFor.value) return { ok: false, reason: 'waitFor "url-matches" needs a value.' };
      const regex = /^\/(.+)\/$/.exec(waitFor.value);
      return {
        ok: true,
        waitFor: regex
          ? { kind: 'url', pattern: regex[1] ?? '', mode: 'regex', timeoutMs }
          : { kind: 'url', pattern: waitFor.value, mode: 'includes', timeoutMs },
      };
    }
    case 'visible':
    case 'hidden':
      if (!locator) return { ok: false, reason: `waitFor "${waitFor.condition}" needs a ref or a selector.` };
      return { ok: true, waitFor: { kind: waitFor.condition, target: locator, timeoutMs } };
    case 'text-appears':
      if (!waitFor.value) return { ok: false, reason: 'waitFor "text-appears" needs a value.' };
      return { ok: true, waitFor: { kind: 'text-appears', text: waitFor.value, timeoutMs } };
    case 'text-changes':
      return { ok: true, waitFor: { kind: 'text-changes', ...(locator ? { target: locator } : {}), timeoutMs } };
    case 'navigation-done':
      return { ok: true, waitFor: { kind: 'navigation', timeoutMs } };
    case 'network-quiet':
      return { ok: true, waitFor: { kind: 'network-quiet', timeoutMs } };
    // A download is watched by the runtime (the downloads API), not in the page: there the network only settles.
    case 'download-complete':
      return { ok: true, waitFor: { kind: 'network-quiet', timeoutMs } };
  }
}

function waitLocator(waitFor: ToolWaitFor): Exclude<PageTarget, { kind: 'point' }> | undefined {
  if (waitFor.ref && /^e\d+$/.test(waitFor.ref)) return { kind: 'ref', ref: waitFor.ref };
  if (waitFor.selector) return { kind: 'selector', selector: waitFor.selector };
  return undefined;
}
