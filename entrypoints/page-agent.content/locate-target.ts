import type { PageTarget } from '@/lib/protocol/page-wire';
import { elementForRef } from './agent-state';
import { describeElement } from './accessibility-tree';
import { roleOf } from './element-role';
import { shadowRootOf } from './shadow-root';
import { isRendered } from './visibility';

export type Located = { found: true; element: Element } | { found: false; reason: string };

/** Every element of the document, shadow trees (open and closed) included. */
function* allElements(root: Document | ShadowRoot | Element): Generator<Element> {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const element = node as Element;
    yield element;
    const shadow = shadowRootOf(element);
    if (shadow !== null) yield* allElements(shadow);
  }
}

function bySelector(selector: string): Located {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch {
    return { found: false, reason: `"${selector}" is not a valid CSS selector.` };
  }
  return element === null ? { found: false, reason: `Nothing matches "${selector}".` } : { found: true, element };
}

function byRoleAndName(role: string, name: string): Located {
  const matches: Element[] = [];
  for (const element of allElements(document)) {
    if (roleOf(element) !== role || !isRendered(element)) continue;
    if (describeElement(element).name === name) matches.push(element);
    if (matches.length > 1) break;
  }
  if (matches.length === 0) return { found: false, reason: `No ${role} named "${name}".` };
  if (matches.length > 1) return { found: false, reason: `More than one ${role} is named "${name}": use a ref.` };
  return { found: true, element: matches[0] };
}

/** The element a ref, selector or role and name stands for now (points are hit-tested instead). */
export function locateTarget(target: Exclude<PageTarget, { kind: 'point' }>): Located {
  if (target.kind === 'selector') return bySelector(target.selector);
  if (target.kind === 'role') return byRoleAndName(target.role, target.name);
  const element = elementForRef(target.ref);
  if (element === undefined || !element.isConnected)
    return { found: false, reason: `The element of ${target.ref} is no longer in the page.` };
  return { found: true, element };
}
