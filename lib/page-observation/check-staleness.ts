import type { PageExpectation, PageModal, PageViewport } from '../protocol/page-wire';

/** What the content script sees now, for the element an action resolved to (if any). */
export interface CurrentPageState {
  documentId: string;
  modal: PageModal;
  viewport: PageViewport;
  /** For ref targets: the ref's element now; `attached: false` when it left the document. */
  element?: { attached: boolean; role: string; name: string; checked?: boolean | 'mixed'; inputType?: string };
}

export type Staleness = { stale: false } | { stale: true; reason: string };

const VIEWPORT_FIELDS = ['width', 'height', 'scrollX', 'scrollY', 'devicePixelRatio', 'visualScale'] as const;

function modalOpenedSince(expected: PageModal, current: PageModal): boolean {
  return current.open && (!expected.open || expected.ref !== current.ref);
}

/**
 * The staleness rules: another document, or a modal opened since, is stale for every target; a ref whose element
 * left the document or changed role, name, checked state or input type is stale; a point is stale after any viewport, scroll,
 * device-pixel-ratio or zoom change. Changes anywhere else are not.
 */
export function checkStaleness(
  targetKind: 'ref' | 'selector' | 'role' | 'point' | 'none',
  expected: PageExpectation,
  current: CurrentPageState,
): Staleness {
  if (current.documentId !== expected.documentId)
    return { stale: true, reason: 'The page navigated or reloaded since the observation.' };
  if (modalOpenedSince(expected.modal, current.modal))
    return { stale: true, reason: `A modal dialog opened since the observation${modalName(current.modal)}.` };
  if (targetKind === 'ref') return refStaleness(expected, current);
  if (targetKind === 'point') return viewportStaleness(expected.viewport, current.viewport);
  return { stale: false };
}

function modalName(modal: PageModal): string {
  return modal.name ? ` ("${modal.name}")` : '';
}

function refStaleness(expected: PageExpectation, current: CurrentPageState): Staleness {
  const element = current.element;
  if (element === undefined || !element.attached)
    return { stale: true, reason: 'The element of that ref is no longer in the page.' };
  const wanted = expected.ref;
  if (wanted === undefined) return { stale: false };
  if (element.role !== wanted.role || element.name !== wanted.name)
    return {
      stale: true,
      reason: `The element changed from ${wanted.role} "${wanted.name}" to ${element.role} "${element.name}".`,
    };
  if ((element.checked ?? false) !== (wanted.checked ?? false))
    return { stale: true, reason: `The element's checked state changed to ${String(element.checked ?? false)}.` };
  if ((element.inputType ?? '') !== (wanted.inputType ?? ''))
    return {
      stale: true,
      reason: `The field's type changed from ${wanted.inputType ?? 'none'} to ${element.inputType ?? 'none'}.`,
    };
  return { stale: false };
}

function viewportStaleness(expected: PageViewport, current: PageViewport): Staleness {
  const changed = VIEWPORT_FIELDS.filter((field) => Math.abs(expected[field] - current[field]) > 1e-6);
  if (changed.length === 0) return { stale: false };
  return { stale: true, reason: `Coordinates are stale: ${changed.join(', ')} changed since the observation.` };
}
