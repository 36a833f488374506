interface ChromeDom {
  dom?: { openOrClosedShadowRoot?: (element: HTMLElement) => ShadowRoot | null };
}

/**
 * The element's shadow root, open or closed. Content scripts can reach closed roots: Chrome through
 * `chrome.dom.openOrClosedShadowRoot`, Firefox through `element.openOrClosedShadowRoot`.
 */
export function shadowRootOf(element: Element): ShadowRoot | null {
  const chromeDom = (globalThis as { chrome?: ChromeDom }).chrome?.dom;
  if (chromeDom?.openOrClosedShadowRoot !== undefined && element instanceof HTMLElement) {
    try {
      return chromeDom.openOrClosedShadowRoot(element);
    } catch {
      return element.shadowRoot;
    }
  }
  const firefox = (element as Element & { openOrClosedShadowRoot?: ShadowRoot | null }).openOrClosedShadowRoot;
  return firefox ?? element.shadowRoot;
}

/** The parent in the flattened tree: across a shadow root to its host. */
export function composedParent(node: Node): Node | null {
  if (node instanceof Element && node.assignedSlot) return node.assignedSlot;
  if (node.parentNode instanceof ShadowRoot) return node.parentNode.host;
  return node.parentNode;
}

/** Whether `inner` is `outer` or inside it, through shadow roots and slots. */
export function composedContains(outer: Node, inner: Node): boolean {
  for (let node: Node | null = inner; node !== null; node = composedParent(node)) if (node === outer) return true;
  return false;
}

/** The deepest element at a viewport point, descending into open and closed shadow roots. */
export function deepElementFromPoint(x: number, y: number): Element | null {
  let element = document.elementFromPoint(x, y);
  for (let depth = 0; element !== null && depth < 50; depth++) {
    const root = shadowRootOf(element);
    const inner = root?.elementFromPoint(x, y) ?? null;
    if (inner === null || inner === element) break;
    element = inner;
  }
  return element;
}
