import { computeAccessibleName, getRole } from 'dom-accessibility-api';
import { shadowRootOf } from './shadow-root';

/** Roles whose elements get a ref: what a person can act on, and containers `scope` can name. */
const REF_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'treeitem',
  'dialog',
  'alertdialog',
  'iframe',
  'img',
  'tabpanel',
  'form',
  'region',
  'navigation',
  'main',
  'list',
  'table',
  'menu',
  'tablist',
]);

const LIFTED_ROLES = new Set(['generic', 'presentation', 'none']);

/** Roles named from their content (or not at all): computing a name for others is wasted work. */
const UNNAMED_ROLES = new Set(['paragraph', 'list', 'listitem', 'rowgroup', 'generic', 'code', 'blockquote']);

/** Roles a person reads the name of on the element itself: an aria-label there replaces visible text. */
export const NAME_FROM_CONTENT_ROLES = new Set([
  'button',
  'link',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'heading',
  'checkbox',
  'radio',
  'switch',
  'treeitem',
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
]);

const TEXTBOX_INPUTS = new Set(['password', 'date', 'time', 'datetime-local', 'month', 'week']);

export function roleOf(element: Element): string | undefined {
  const tag = element.localName;
  if (tag === 'iframe' || tag === 'frame') return 'iframe';
  const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
  const role = explicit || getRole(element) || undefined;
  if (role === undefined && tag === 'canvas') return 'img';
  // As Playwright: password, date and time fields are textboxes (the value shows what they hold).
  if (role === undefined && element instanceof HTMLInputElement && TEXTBOX_INPUTS.has(element.type)) return 'textbox';
  // A file input has no ARIA role; browsers expose it as a button (its label names it), as Chromium's tree does.
  if (role === undefined && element instanceof HTMLInputElement && element.type === 'file') return 'button';
  if (role === undefined && element instanceof HTMLElement && element.isContentEditable) return 'textbox';
  return role;
}

export function isLifted(role: string | undefined): boolean {
  return role === undefined || LIFTED_ROLES.has(role);
}

/** The role the page tree shows: an element without one (or `presentation`, `none`) is `generic`. */
export function shownRoleOf(element: Element): string {
  const role = roleOf(element);
  return role === undefined || isLifted(role) ? 'generic' : role;
}

/** Roles that get a ref by themselves; any other element gets one only when it behaves as clickable. */
export function hasRefRole(role: string | undefined): boolean {
  return role !== undefined && REF_ROLES.has(role);
}

export function nameOf(element: Element, role: string): string {
  if (role === 'generic') return genericNameOf(element);
  if (UNNAMED_ROLES.has(role) && !element.hasAttribute('aria-label') && !element.hasAttribute('aria-labelledby'))
    return '';
  if (role === 'iframe') return element.getAttribute('title') ?? element.getAttribute('name') ?? '';
  const plain = plainTextName(element, role);
  if (plain !== undefined) return plain;
  try {
    return normalizeSpace(computeAccessibleName(element));
  } catch {
    return '';
  }
}

/**
 * The common case without the full accessible-name computation (which walks styles of every descendant): a
 * name-from-content element with no labelling attributes whose children are all text. Its name is its text.
 */
function plainTextName(element: Element, role: string): string | undefined {
  if (!NAME_FROM_CONTENT_ROLES.has(role) || element instanceof HTMLInputElement) return undefined;
  if (element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby') || element.hasAttribute('title'))
    return undefined;
  if (element.childElementCount > 0 || shadowRootOf(element) !== null) return undefined;
  return normalizeSpace(element.textContent ?? '');
}

const GENERIC_NAME_DESCENDANTS = 20;
const GENERIC_NAME_LENGTH = 200;
/** Inline wrappers of text: an element holding only these reads as one phrase. */
const PHRASING_TAGS = new Set([
  'span',
  'b',
  'i',
  'em',
  'strong',
  'small',
  'mark',
  'u',
  's',
  'sub',
  'sup',
  'br',
  'wbr',
  'font',
  'abbr',
  'bdi',
  'bdo',
  'cite',
  'dfn',
  'kbd',
  'q',
  'samp',
  'time',
  'data',
  'var',
]);

/**
 * A generic element's name, which only a clickable one shows: its label, or its text when that is short and made of
 * text in inline wrappers without a role (`<span class="alink">Eget</span>`, `<div><b>Save</b> draft</div>`). A
 * container of blocks, controls or many elements has none: its children say what it holds, and a name would repeat
 * them.
 */
function genericNameOf(element: Element): string {
  if (element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby') || element.hasAttribute('title'))
    try {
      return normalizeSpace(computeAccessibleName(element));
    } catch {
      return '';
    }
  if (shadowRootOf(element) !== null) return '';
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_ELEMENT);
  let descendants = 0;
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const descendant = node as Element;
    if (
      ++descendants > GENERIC_NAME_DESCENDANTS ||
      !PHRASING_TAGS.has(descendant.localName) ||
      !isLifted(roleOf(descendant)) ||
      descendant.hasAttribute('onclick') ||
      descendant.hasAttribute('tabindex') ||
      shadowRootOf(descendant) !== null
    )
      return '';
  }
  const text = normalizeSpace(element.textContent ?? '');
  return text.length <= GENERIC_NAME_LENGTH ? text : '';
}

export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function checkedOf(element: Element, role: string): boolean | 'mixed' | undefined {
  if (!['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)) return undefined;
  if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio'))
    return element.indeterminate ? 'mixed' : element.checked;
  const aria = element.getAttribute('aria-checked');
  if (aria === 'mixed') return 'mixed';
  return aria === 'true';
}

export function disabledOf(element: Element): boolean {
  if (element.getAttribute('aria-disabled') === 'true') return true;
  return element.matches(':disabled');
}

function ariaFlag(element: Element, attribute: string): boolean | 'mixed' | undefined {
  const value = element.getAttribute(attribute);
  if (value === 'true') return true;
  if (value === 'mixed') return 'mixed';
  return undefined;
}

export function expandedOf(element: Element): boolean | undefined {
  if (element.localName === 'summary') return (element.parentElement as HTMLDetailsElement | null)?.open || undefined;
  return ariaFlag(element, 'aria-expanded') === true || undefined;
}

export function pressedOf(element: Element): boolean | 'mixed' | undefined {
  return ariaFlag(element, 'aria-pressed');
}

export function selectedOf(element: Element): boolean | undefined {
  if (element instanceof HTMLOptionElement) return element.selected || undefined;
  return ariaFlag(element, 'aria-selected') === true || undefined;
}

export function levelOf(element: Element, role: string): number | undefined {
  if (role !== 'heading') return undefined;
  const aria = Number(element.getAttribute('aria-level'));
  if (Number.isInteger(aria) && aria > 0) return aria;
  const match = /^h([1-6])$/.exec(element.localName);
  return match ? Number(match[1]) : undefined;
}

const PASSWORD_MASK = '••••';

/** A form control's value as the page tree shows it; passwords never leave the page. */
export function valueOf(element: Element): string | undefined {
  if (element instanceof HTMLInputElement) {
    if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(element.type))
      return undefined;
    if (element.type === 'password') return element.value === '' ? undefined : PASSWORD_MASK;
    return element.value;
  }
  if (element instanceof HTMLTextAreaElement) return element.value;
  if (element instanceof HTMLSelectElement)
    return [...element.selectedOptions].map((option) => normalizeSpace(option.label)).join(', ');
  return undefined;
}
