import { DROP_FILE_EVENT } from '@/lib/protocol/page-tools-bridge-events';
import type { PageRequest } from '@/lib/protocol/page-wire';

type UploadFile = NonNullable<Extract<PageRequest, { type: 'page/act' }>['file']>;

function fileOf(upload: UploadFile): File {
  const bytes = Uint8Array.from(atob(upload.base64), (character) => character.charCodeAt(0));
  return new File([bytes], upload.name, { type: upload.type, lastModified: Date.now() });
}

/** The file input an element stands for: itself, the control of its label, or one inside it. */
function fileInputOf(element: Element): HTMLInputElement | undefined {
  const control = element instanceof HTMLLabelElement ? element.control : element;
  if (control instanceof HTMLInputElement && control.type === 'file') return control;
  const inside = element.querySelector('input[type="file"]');
  return inside instanceof HTMLInputElement ? inside : undefined;
}

/**
 * Puts the file into a file input (its `files`, then `input` and `change`, as a choice in the file picker fires
 * them) or drops it on the element (`dragenter`, `dragover`, `drop` with a DataTransfer carrying it, at its
 * centre); a string says why not.
 */
export function uploadInto(element: Element, upload: UploadFile | undefined): true | string {
  if (upload === undefined) return 'upload needs a file.';
  const transfer = new DataTransfer();
  transfer.items.add(fileOf(upload));
  const input = fileInputOf(element);
  if (input) {
    if (input.disabled) return 'The file input is disabled.';
    input.files = transfer.files;
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    return true;
  }
  const request = new CustomEvent(DROP_FILE_EVENT, { detail: JSON.stringify(upload), cancelable: true });
  // The main-world bridge drops it where it runs (it cancels the request); where it does not, the drop is made here.
  if (!element.dispatchEvent(request)) return true;
  const box = element.getBoundingClientRect();
  const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 };
  for (const type of ['dragenter', 'dragover', 'drop'])
    element.dispatchEvent(
      new DragEvent(type, { bubbles: true, cancelable: true, composed: true, dataTransfer: transfer, ...at }),
    );
  return true;
}
