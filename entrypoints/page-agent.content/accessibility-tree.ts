import type { PageChildFrame, PageRefInfo } from '@/lib/protocol/page-wire';
import { isClickable } from '@/lib/page-observation/is-clickable';
import type { PageTreeNode } from '@/lib/page-observation/page-tree-node';
import { refFor } from './agent-state';
import {
  checkedOf,
  disabledOf,
  expandedOf,
  hasRefRole,
  isLifted,
  NAME_FROM_CONTENT_ROLES,
  levelOf,
  nameOf,
  normalizeSpace,
  pressedOf,
  roleOf,
  selectedOf,
  shownRoleOf,
  valueOf,
} from './element-role';
import { frameIdOf } from './frame-id';
import { listenedElements } from './listened-elements';
import { shadowRootOf } from './shadow-root';
import { BADGE_TAG } from './acting-badge';
import { boxOf, DOCUMENT_LOOK, inViewport, isRendered, lookOf, type InheritedLook } from './visibility';

const SKIPPED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', BADGE_TAG]);
const LEAF_TAGS = new Set(['input', 'textarea', 'select', 'img', 'iframe', 'frame', 'canvas', 'video', 'audio']);
export const NODE_LIMIT = 20_000;

export interface AccessibilityTree {
  roots: PageTreeNode[];
  refs: Map<string, PageRefInfo>;
  childFrames: PageChildFrame[];
  nodeLimitReached: boolean;
}

interface Walk {
  visited: number;
  refs: Map<string, PageRefInfo>;
  childFrames: PageChildFrame[];
  /** Elements with click listeners of their own, from the main-world bridge. */
  listened: Map<Element, number>;
}

/** The children in the flattened tree: a host's shadow root (open or closed), a slot's assigned nodes. */
function childrenOf(element: Element): Node[] {
  const root = shadowRootOf(element);
  if (root !== null) return [...root.childNodes];
  if (element instanceof HTMLSlotElement) {
    const assigned = element.assignedNodes();
    if (assigned.length > 0) return assigned;
  }
  return [...element.childNodes];
}

function mergeText(nodes: PageTreeNode[]): PageTreeNode[] {
  const merged: PageTreeNode[] = [];
  for (const node of nodes) {
    const last = merged.at(-1);
    if (node.role === 'text' && last?.role === 'text' && last.hiddenText === node.hiddenText && !last.ref) {
      last.name = `${last.name} ${node.name}`;
      last.inViewport ||= node.inViewport;
    } else merged.push(node);
  }
  return merged;
}

/** Text that only repeats the node's name adds nothing (Playwright drops it too). */
function withoutEchoedName(name: string, children: PageTreeNode[]): PageTreeNode[] {
  if (name === '') return children;
  const text = children.every((child) => child.role === 'text') ? children.map((child) => child.name).join(' ') : '';
  return text !== '' && normalizeSpace(text) === name ? [] : children;
}

/**
 * A name a person cannot read where it is: an aria-label or title that replaces the visible text of a control or
 * link, or a long one (more than eight words) on anything.
 */
function nameHiddenFromSight(element: Element, role: string, name: string): boolean {
  if (name === '') return false;
  const label = element.getAttribute('aria-label') ?? element.getAttribute('title');
  if (label === null || normalizeSpace(label) !== name) return false;
  const visible = normalizeSpace(element.textContent ?? '');
  if (visible.includes(name)) return false;
  if (name.split(' ').length > 8) return true;
  return NAME_FROM_CONTENT_ROLES.has(role) && (visible !== '' || name.split(' ').length > 3);
}

function hasOwnText(element: Element): boolean {
  return [...element.childNodes].some(
    (child) => child.nodeType === Node.TEXT_NODE && normalizeSpace(child.nodeValue ?? '') !== '',
  );
}

function optionNodes(select: HTMLSelectElement, inView: boolean): PageTreeNode[] {
  return [...select.options].map((option) => ({
    role: 'option',
    name: normalizeSpace(option.label),
    selected: option.selected || undefined,
    inViewport: inView,
    children: [],
  }));
}

function visitText(node: Node, look: { hidden: boolean }, inView: boolean): PageTreeNode[] {
  const text = normalizeSpace(node.nodeValue ?? '');
  if (text === '') return [];
  return [{ role: 'text', name: text, hiddenText: look.hidden || undefined, inViewport: inView, children: [] }];
}

function visitChildren(
  element: Element,
  walk: Walk,
  look: { hidden: boolean; inherited: InheritedLook },
  inView: boolean,
) {
  const nodes: PageTreeNode[] = [];
  for (const child of childrenOf(element)) {
    if (walk.visited >= NODE_LIMIT) break;
    if (child.nodeType === Node.TEXT_NODE) nodes.push(...visitText(child, look, inView));
    else if (child instanceof Element) nodes.push(...visitElement(child, walk, look.inherited));
  }
  return mergeText(nodes);
}

function childFrameOf(element: Element, ref: string): PageChildFrame {
  const rect = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  const left = element.clientLeft + parseFloat(style.paddingLeft || '0');
  const top = element.clientTop + parseFloat(style.paddingTop || '0');
  return {
    ref,
    src: (element as HTMLIFrameElement).src ?? '',
    name: element.getAttribute('name') ?? '',
    contentBox: {
      x: rect.x + left,
      y: rect.y + top,
      width:
        (element as HTMLElement).clientWidth -
        parseFloat(style.paddingLeft || '0') -
        parseFloat(style.paddingRight || '0'),
      height:
        (element as HTMLElement).clientHeight -
        parseFloat(style.paddingTop || '0') -
        parseFloat(style.paddingBottom || '0'),
    },
    frameId: frameIdOf(element),
  };
}

/** Whether an element whose role gives it no ref behaves as clickable (lib/page-observation/is-clickable.ts has the rule). */
function behavesAsClickable(element: Element, walk: Walk, cursor: string, parentCursor: string): boolean {
  return isClickable({
    tag: element.localName,
    listenedTypes: walk.listened.get(element),
    onclickAttribute: element.hasAttribute('onclick'),
    cursor,
    parentCursor,
    hasTabIndexAttribute: element.hasAttribute('tabindex'),
    tabIndex: element instanceof HTMLElement || element instanceof SVGElement ? element.tabIndex : -1,
    labelsControl: element instanceof HTMLLabelElement && element.control !== null,
  });
}

function visitElement(element: Element, walk: Walk, inherited: InheritedLook): PageTreeNode[] {
  if (SKIPPED_TAGS.has(element.localName) || !isRendered(element)) return [];
  walk.visited++;
  const box = boxOf(element);
  const look = lookOf(element, box, inherited);
  const inView = inViewport(box);
  const ownRole = roleOf(element);
  const children = LEAF_TAGS.has(element.localName) ? [] : visitChildren(element, walk, look, inView);
  const clickable = !hasRefRole(ownRole) && behavesAsClickable(element, walk, look.inherited.cursor, inherited.cursor);
  if (isLifted(ownRole) && !clickable) return children;
  const role = shownRoleOf(element);
  const name = nameOf(element, role);
  const hiddenText = (look.hidden && (name !== '' || hasOwnText(element))) || nameHiddenFromSight(element, role, name);
  const node: PageTreeNode = {
    role,
    name,
    checked: checkedOf(element, role),
    disabled: disabledOf(element) || undefined,
    expanded: expandedOf(element),
    level: levelOf(element, role),
    pressed: pressedOf(element),
    selected: selectedOf(element),
    value: valueOf(element),
    url:
      element instanceof HTMLAnchorElement && element.hasAttribute('href') ? element.getAttribute('href')! : undefined,
    clickable: clickable || undefined,
    hiddenText: hiddenText || undefined,
    inViewport: inView,
    children: element instanceof HTMLSelectElement ? optionNodes(element, inView) : withoutEchoedName(name, children),
  };
  if (node.children.length === 1 && node.children[0].role === 'text' && !node.children[0].hiddenText && name === '') {
    node.text = node.children[0].name;
    node.children = [];
  }
  if (hasRefRole(role) || clickable) {
    const ref = refFor(element);
    node.ref = ref;
    const frame = role === 'iframe' ? childFrameOf(element, ref) : undefined;
    if (frame !== undefined) walk.childFrames.push(frame);
    walk.refs.set(ref, {
      role,
      name,
      tag: element.localName,
      box,
      checked: node.checked,
      inputType: inputTypeOf(element),
      disabled: node.disabled,
      hiddenText: node.hiddenText,
      inViewport: inView,
      frame,
    });
  }
  return [node];
}

/** The frame's accessibility tree from `root` (the body, or a scoped element). */
export function accessibilityTree(root: Element): AccessibilityTree {
  const walk: Walk = { visited: 0, refs: new Map(), childFrames: [], listened: listenedElements() };
  const parent = root.parentElement;
  const roots = visitElement(
    root,
    walk,
    parent === null ? DOCUMENT_LOOK : { ...DOCUMENT_LOOK, cursor: getComputedStyle(parent).cursor },
  );
  return { roots, refs: walk.refs, childFrames: walk.childFrames, nodeLimitReached: walk.visited >= NODE_LIMIT };
}

/** Role, name and checked state of one element now, as the page tree would give them. */
export function describeElement(element: Element): {
  role: string;
  name: string;
  checked?: boolean | 'mixed';
  inputType?: string;
} {
  const role = shownRoleOf(element);
  return { role, name: nameOf(element, role), checked: checkedOf(element, role), inputType: inputTypeOf(element) };
}

/** An input's type as the page has it now (`type` reflects the attribute, lower case, `text` when unknown). */
function inputTypeOf(element: Element): string | undefined {
  return element instanceof HTMLInputElement ? element.type : undefined;
}
