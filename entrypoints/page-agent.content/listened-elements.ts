import { CLICKABLE_REPLY_EVENT, CLICKABLES_REQUEST_EVENT } from '@/lib/protocol/page-tools-bridge-events';

const MAX_ELEMENTS = 50_000;

/**
 * The elements the main-world bridge saw get a click listener of their own, each with how many event types it
 * listens for. The bridge answers synchronously, one event per element (see the bridge's record-click-listeners.ts);
 * empty without the bridge. The page can add elements of its own to this, which only gives them refs.
 */
export function listenedElements(): Map<Element, number> {
  const found = new Map<Element, number>();
  const onReply = (event: Event) => {
    const target = event.composedPath()[0];
    if (!(target instanceof Element) || found.size >= MAX_ELEMENTS) return;
    const detail: unknown = (event as CustomEvent).detail;
    found.set(target, typeof detail === 'number' && Number.isFinite(detail) ? detail : 1);
  };
  window.addEventListener(CLICKABLE_REPLY_EVENT, onReply, true);
  try {
    document.dispatchEvent(new CustomEvent(CLICKABLES_REQUEST_EVENT));
  } finally {
    window.removeEventListener(CLICKABLE_REPLY_EVENT, onReply, true);
  }
  return found;
}
