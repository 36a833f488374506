import type { PageModal } from '@/lib/protocol/page-wire';
import { refFor } from './agent-state';
import { nameOf } from './element-role';
import { isRendered } from './visibility';

/** The topmost modal: a `<dialog>` shown with `showModal()`, else a rendered `[aria-modal=true]` dialog. */
export function modalElement(): Element | undefined {
  const dialogs = [...document.querySelectorAll('dialog[open]')].filter((dialog) => dialog.matches(':modal'));
  if (dialogs.length > 0) return dialogs.at(-1);
  const aria = [...document.querySelectorAll('[aria-modal="true"]')].filter(isRendered);
  return aria.at(-1);
}

export function modalState(): PageModal {
  const element = modalElement();
  if (element === undefined) return { open: false };
  const role = element.getAttribute('role') ?? 'dialog';
  return { open: true, ref: refFor(element), name: nameOf(element, role).slice(0, 500) || undefined };
}
