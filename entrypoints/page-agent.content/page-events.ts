import { recordEvent } from './agent-state';
import { normalizeSpace } from './element-role';

const LIVE_SELECTOR =
  '[role=alert],[role=status],[role=log],[role=alertdialog],[role=dialog],[aria-live=polite],[aria-live=assertive],output,dialog';
const TOAST_PATTERN = /toast|snackbar|notification|notice|flash/i;

function kindOf(element: Element): 'alert' | 'status' | 'live' | 'dialog' | 'toast' {
  const role = element.getAttribute('role');
  if (role === 'alert' || role === 'alertdialog') return 'alert';
  if (role === 'dialog' || element.localName === 'dialog') return 'dialog';
  if (TOAST_PATTERN.test(`${element.id} ${element.className}`)) return 'toast';
  if (role === 'status' || element.localName === 'output') return 'status';
  return 'live';
}

function liveRegionOf(node: Node): Element | undefined {
  const element = node instanceof Element ? node : node.parentElement;
  const region = element?.closest(LIVE_SELECTOR);
  if (region) return region;
  if (element && TOAST_PATTERN.test(`${element.id} ${typeof element.className === 'string' ? element.className : ''}`))
    return element;
  return undefined;
}

function record(region: Element): void {
  if (region.localName === 'dialog' && !(region as HTMLDialogElement).open) return;
  const text = normalizeSpace((region as HTMLElement).innerText ?? region.textContent ?? '');
  if (text === '') return;
  recordEvent({ at: Date.now(), kind: kindOf(region), text: text.slice(0, 300) });
}

/** Records alerts, status and live regions, toasts and dialogs as they appear, for the next observation. */
export function watchPageEvents(): void {
  const observer = new MutationObserver((mutations) => {
    const regions = new Set<Element>();
    for (const mutation of mutations) {
      const region = liveRegionOf(mutation.target);
      if (region) regions.add(region);
      for (const added of mutation.addedNodes) {
        const addedRegion = liveRegionOf(added);
        if (addedRegion) regions.add(addedRegion);
        if (added instanceof Element) for (const inner of added.querySelectorAll(LIVE_SELECTOR)) regions.add(inner);
      }
    }
    for (const region of regions) record(region);
  });
  observer.observe(document.documentElement, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['open', 'class', 'hidden', 'style', 'aria-hidden'],
  });
}
