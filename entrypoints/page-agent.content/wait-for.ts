import type { PageWaitFor } from '@/lib/protocol/page-wire';
import { locateTarget } from './locate-target';
import { isRendered } from './visibility';

export interface Waited {
  condition: string;
  met: boolean;
  ms: number;
  unloading: boolean;
}

const QUIET_MS = 100;
const SETTLE_CAP_MS = 1500;
const RECHECK_MS = 100;

const STILL_HERE_MS = 1000;

let unloading = false;
let hidden = false;
addEventListener('pagehide', () => (unloading = hidden = true));
addEventListener('beforeunload', () => {
  unloading = true;
  // A link that turns out to be a download (or a cancelled navigation) leaves the document in place: not unloading.
  setTimeout(() => (unloading = hidden), STILL_HERE_MS);
});

/**
 * Resolves when `check()` holds, re-checking on every DOM mutation, URL change and a 100 ms recheck (for changes
 * no mutation announces: CSS transitions, history.pushState without DOM change), or on timeout, or when the
 * document starts unloading.
 */
function waitUntil(check: () => boolean, timeoutMs: number, condition: string): Promise<Waited> {
  const started = performance.now();
  return new Promise((resolve) => {
    const finish = (met: boolean) => {
      observer.disconnect();
      clearInterval(recheck);
      clearTimeout(timer);
      removeEventListener('pagehide', onUnload);
      resolve({ condition, met, ms: Math.round(performance.now() - started), unloading });
    };
    const test = () => {
      if (unloading) finish(false);
      else if (check()) finish(true);
    };
    const onUnload = () => finish(false);
    const observer = new MutationObserver(test);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const recheck = setInterval(test, RECHECK_MS);
    const timer = setTimeout(() => finish(check()), timeoutMs);
    addEventListener('pagehide', onUnload);
    test();
  });
}

/** No mutation for 100 ms (capped at 1.5 s): the page has settled after an action. */
export function waitForDomQuiet(): Promise<Waited> {
  const started = performance.now();
  return new Promise((resolve) => {
    const finish = (met: boolean) => {
      observer.disconnect();
      clearTimeout(quiet);
      clearTimeout(cap);
      resolve({ condition: 'dom-quiet', met, ms: Math.round(performance.now() - started), unloading });
    };
    const observer = new MutationObserver(() => {
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(true), QUIET_MS);
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    let quiet = setTimeout(() => finish(true), QUIET_MS);
    const cap = setTimeout(() => finish(false), SETTLE_CAP_MS);
  });
}

function visible(target: Extract<PageWaitFor, { kind: 'visible' }>['target']): boolean {
  const located = locateTarget(target);
  if (!located.found || !isRendered(located.element)) return false;
  const rect = located.element.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0;
}

function textOf(target: Extract<PageWaitFor, { kind: 'text-changes' }>['target']): string {
  if (target === undefined) return document.body?.innerText ?? '';
  const located = locateTarget(target);
  return located.found ? ((located.element as HTMLElement).innerText ?? located.element.textContent ?? '') : '';
}

function urlMatches(pattern: string, mode: 'includes' | 'regex'): boolean {
  if (mode === 'includes') return location.href.includes(pattern);
  try {
    return new RegExp(pattern).test(location.href);
  } catch {
    return false;
  }
}

/** Network quiet from a content script: no resource-timing entry (each fetch, XHR, image when it ends) for a while. */
function waitForNetworkQuiet(quietMs: number, timeoutMs: number): Promise<Waited> {
  let last = performance.now();
  const observer = new PerformanceObserver(() => (last = performance.now()));
  observer.observe({ type: 'resource', buffered: false });
  return waitUntil(() => performance.now() - last >= quietMs, timeoutMs, `network-quiet ${quietMs} ms`).finally(() =>
    observer.disconnect(),
  );
}

/** Prepared before the action (to capture the "before" state), awaited after it. */
export function prepareWait(waitFor: PageWaitFor | undefined): () => Promise<Waited> {
  if (waitFor === undefined) return waitForDomQuiet;
  const timeout = waitFor.timeoutMs;
  switch (waitFor.kind) {
    case 'url':
      return () =>
        waitUntil(() => urlMatches(waitFor.pattern, waitFor.mode), timeout, `url ${waitFor.mode} ${waitFor.pattern}`);
    case 'visible':
      return () => waitUntil(() => visible(waitFor.target), timeout, 'visible');
    case 'hidden':
      return () => waitUntil(() => !visible(waitFor.target), timeout, 'hidden');
    case 'text-appears':
      return () =>
        waitUntil(
          () => (document.body?.innerText ?? '').includes(waitFor.text),
          timeout,
          `text-appears "${waitFor.text.slice(0, 100)}"`,
        );
    case 'text-changes': {
      const before = textOf(waitFor.target);
      return () => waitUntil(() => textOf(waitFor.target) !== before, timeout, 'text-changes');
    }
    case 'navigation': {
      const before = location.href;
      return async () => {
        const changed = await waitUntil(() => location.href !== before, timeout, 'navigation');
        if (!changed.met || changed.unloading) return changed;
        const quiet = await waitForDomQuiet();
        return { ...changed, ms: changed.ms + quiet.ms };
      };
    }
    case 'network-quiet':
      return () => waitForNetworkQuiet(waitFor.quietMs ?? 500, timeout);
  }
}
