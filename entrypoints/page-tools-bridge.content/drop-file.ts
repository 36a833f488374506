import { DROP_FILE_EVENT } from '@/lib/protocol/page-tools-bridge-events';

/**
 * Drops a file on the element the page agent names, from the page's main world. Firefox shows the page nothing of
 * a DataTransfer the content script filled (its items carry the extension's principal), so the drag events are
 * made here; `preventDefault` on the request tells the agent it was done. `detail` is a JSON `{ name, type, base64 }`.
 */
export function answerFileDrops(): void {
  document.addEventListener(
    DROP_FILE_EVENT,
    (event) => {
      const target = event.target;
      const file =
        typeof (event as CustomEvent).detail === 'string' ? parsed((event as CustomEvent).detail) : undefined;
      if (!(target instanceof Element) || !file) return;
      event.preventDefault();
      const transfer = new DataTransfer();
      const bytes = Uint8Array.from(atob(file.base64), (character) => character.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name, { type: file.type, lastModified: Date.now() }));
      const box = target.getBoundingClientRect();
      const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 };
      for (const type of ['dragenter', 'dragover', 'drop'])
        target.dispatchEvent(
          new DragEvent(type, { bubbles: true, cancelable: true, composed: true, dataTransfer: transfer, ...at }),
        );
    },
    true,
  );
}

function parsed(detail: string): { name: string; type: string; base64: string } | undefined {
  try {
    const value = JSON.parse(detail) as { name?: unknown; type?: unknown; base64?: unknown };
    return typeof value.name === 'string' && typeof value.type === 'string' && typeof value.base64 === 'string'
      ? { name: value.name, type: value.type, base64: value.base64 }
      : undefined;
  } catch {
    return undefined;
  }
}
