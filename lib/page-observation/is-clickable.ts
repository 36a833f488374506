/**
 * Event types whose listener makes an element clickable (or draggable, or a drop target: `drag` acts on it). Hover
 * (`mouseover`, `mouseenter`) and touch listeners do not: tooltips and scrolling containers use them on elements
 * nobody clicks.
 */
export const CLICK_EVENT_TYPES: readonly string[] = [
  'click',
  'dblclick',
  'auxclick',
  'mousedown',
  'mouseup',
  'pointerdown',
  'pointerup',
  'dragstart',
  'drop',
];

/**
 * An element listening for more distinct event types than this is a framework's delegation root (React listens
 * for about 80 on its root container), not something a person clicks: marking it would wrap the whole page in
 * one more level.
 */
export const DELEGATION_EVENT_TYPES = 20;

/** What the page agent reads of one element whose role gives it no ref. */
export interface ClickSignals {
  /** The element's local name. */
  tag: string;
  /**
   * How many distinct event types the element's own listeners are for, when one of them is a click, pointer or
   * mouse button type (recorded in the page's main world); undefined when none is.
   */
  listenedTypes?: number;
  /** An `onclick` attribute. */
  onclickAttribute: boolean;
  /** Computed `cursor` of the element and of its parent in the flat tree. */
  cursor: string;
  parentCursor: string;
  /** An explicit `tabindex` attribute, and the `tabIndex` it gives. */
  hasTabIndexAttribute: boolean;
  tabIndex: number;
  /** A `<label>` with a control: clicking it clicks the control, which has a ref of its own. */
  labelsControl: boolean;
}

/**
 * Whether an element without an interactive role behaves as clickable: its own click listener, an `onclick`
 * attribute, `cursor: pointer` it does not inherit (an element under a pointer parent takes its parent's cursor, so
 * only the outermost of a run counts), or a `tabindex` of 0 or more. Listeners on an ancestor do not count.
 */
export function isClickable(signals: ClickSignals): boolean {
  if (signals.tag === 'html' || signals.tag === 'body' || signals.labelsControl) return false;
  if (signals.listenedTypes !== undefined && signals.listenedTypes <= DELEGATION_EVENT_TYPES) return true;
  if (signals.onclickAttribute) return true;
  if (signals.cursor === 'pointer' && signals.parentCursor !== 'pointer') return true;
  return signals.hasTabIndexAttribute && signals.tabIndex >= 0;
}
