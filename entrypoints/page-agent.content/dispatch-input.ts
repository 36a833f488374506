/*
 * Input as a person's would arrive, built from untrusted (synthetic) events: the page sees the same order of
 * pointer, mouse, focus and click events, keys one by one, and value changes through the native setter so that
 * React's and Vue's value tracking notice them.
 */

import { composedParent } from './shadow-root';

export function pointerInit(x: number, y: number, buttons: number): PointerEventInit {
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    clientX: x,
    clientY: y,
    screenX: x + screenX,
    screenY: y + screenY,
    button: 0,
    buttons,
    pointerId: 1,
    pointerType: 'mouse',
    isPrimary: true,
    view: window,
  };
}

function focusableAncestor(element: Element): HTMLElement | undefined {
  for (
    let node: Element | null = element;
    node !== null;
    node = node.parentElement ?? (node.getRootNode() as ShadowRoot).host ?? null
  ) {
    if (node instanceof HTMLElement && (node.tabIndex >= 0 || node.isContentEditable) && !node.matches(':disabled'))
      return node;
    if (!(node.getRootNode() instanceof ShadowRoot) && node.parentElement === null) break;
  }
  return undefined;
}

/** The element the synthetic pointer is over, so that moving on leaves it as a real pointer would. */
let pointerOver: Element | undefined;

/** The element and its ancestors in the flattened tree, outermost first. */
function enterChain(element: Element): Element[] {
  const chain: Element[] = [];
  for (let node: Node | null = element; node !== null; node = composedParent(node))
    if (node instanceof Element) chain.unshift(node);
  return chain;
}

/**
 * The pointer moves onto the element: out of and leaving what it was over (deepest first), over and entering every
 * ancestor it was not in yet (outermost first), as a browser fires them; menus that open on an ancestor's
 * `mouseenter` see it.
 */
export function hover(element: Element, x: number, y: number, buttons = 0): void {
  const init = pointerInit(x, y, buttons);
  const previous = pointerOver?.isConnected ? pointerOver : undefined;
  const before = previous ? enterChain(previous) : [];
  const after = enterChain(element);
  if (previous !== element) {
    if (previous) {
      previous.dispatchEvent(new PointerEvent('pointerout', init));
      for (const left of before.filter((node) => !after.includes(node)).reverse())
        left.dispatchEvent(new PointerEvent('pointerleave', { ...init, bubbles: false }));
      previous.dispatchEvent(new MouseEvent('mouseout', init));
      for (const left of before.filter((node) => !after.includes(node)).reverse())
        left.dispatchEvent(new MouseEvent('mouseleave', { ...init, bubbles: false }));
    }
    const entered = after.filter((node) => !before.includes(node));
    element.dispatchEvent(new PointerEvent('pointerover', init));
    for (const node of entered) node.dispatchEvent(new PointerEvent('pointerenter', { ...init, bubbles: false }));
    element.dispatchEvent(new MouseEvent('mouseover', init));
    for (const node of entered) node.dispatchEvent(new MouseEvent('mouseenter', { ...init, bubbles: false }));
    pointerOver = element;
  }
  element.dispatchEvent(new PointerEvent('pointermove', init));
  element.dispatchEvent(new MouseEvent('mousemove', init));
}

/** pointerdown, mousedown, focus, pointerup, mouseup, click: on the element at the point, as a browser would. */
export function click(element: Element, x: number, y: number): void {
  hover(element, x, y);
  const downAllowed = element.dispatchEvent(new PointerEvent('pointerdown', pointerInit(x, y, 1)));
  const mouseDownAllowed = downAllowed && element.dispatchEvent(new MouseEvent('mousedown', pointerInit(x, y, 1)));
  // A mouse click shows no focus ring; `focusVisible` (Firefox, newer Chrome) keeps a synthetic one from drawing it.
  if (mouseDownAllowed) focusableAncestor(element)?.focus({ preventScroll: true, focusVisible: false } as FocusOptions);
  element.dispatchEvent(new PointerEvent('pointerup', pointerInit(x, y, 0)));
  element.dispatchEvent(new MouseEvent('mouseup', pointerInit(x, y, 0)));
  element.dispatchEvent(new MouseEvent('click', { ...pointerInit(x, y, 0), detail: 1 }));
}

type TextControl = HTMLInputElement | HTMLTextAreaElement;

const NON_TEXT_INPUTS = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'image',
  'file',
  'hidden',
  'range',
  'color',
]);

export function isTextControl(element: Element): element is TextControl {
  if (element instanceof HTMLTextAreaElement) return true;
  return element instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(element.type);
}

export function isEditable(element: Element): boolean {
  if (isTextControl(element)) return !element.readOnly && !element.disabled;
  return element instanceof HTMLElement && element.isContentEditable;
}

/** The prototype's setter, past any instance property a framework put on the element to track its value. */
function setNativeValue(element: TextControl | HTMLSelectElement, value: string): void {
  const prototype = Object.getPrototypeOf(element) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (setter) setter.call(element, value);
  else element.value = value;
}

function keyInit(key: string): KeyboardEventInit {
  const code =
    key.length === 1 ? (/[a-z]/i.test(key) ? `Key${key.toUpperCase()}` : /\d/.test(key) ? `Digit${key}` : '') : key;
  return { key, code, bubbles: true, cancelable: true, composed: true, view: window };
}

function inputEvent(type: 'beforeinput' | 'input', inputType: string, data: string | null): InputEvent {
  return new InputEvent(type, { inputType, data, bubbles: true, cancelable: type === 'beforeinput', composed: true });
}

const PER_KEY_LIMIT = 2000;
const WHOLE_VALUE_INPUTS = new Set(['date', 'time', 'datetime-local', 'month', 'week']);

/** Replaces the control's text the way typing does: clear, then one key at a time (long texts in one input event). */
export function typeText(element: Element, text: string): void {
  (element as HTMLElement).focus({ preventScroll: true });
  if (!isTextControl(element)) {
    document.execCommand('selectAll');
    document.execCommand('insertText', false, text);
    return;
  }
  // A date or time field holds only a whole valid value: its text arrives at once, as its picker sets it.
  if (element instanceof HTMLInputElement && WHOLE_VALUE_INPUTS.has(element.type)) {
    setNativeValue(element, text);
    element.dispatchEvent(inputEvent('input', 'insertReplacementText', text));
    element.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  if (element.value !== '') {
    setNativeValue(element, '');
    element.dispatchEvent(inputEvent('input', 'deleteContentBackward', null));
  }
  if (text.length > PER_KEY_LIMIT) {
    setNativeValue(element, text);
    element.dispatchEvent(inputEvent('input', 'insertText', text));
  } else for (const character of text) typeCharacter(element, character);
  element.dispatchEvent(new Event('change', { bubbles: true }));
}

function typeCharacter(element: TextControl, character: string): void {
  const allowed = element.dispatchEvent(new KeyboardEvent('keydown', keyInit(character)));
  if (allowed) {
    element.dispatchEvent(new KeyboardEvent('keypress', keyInit(character)));
    if (element.dispatchEvent(inputEvent('beforeinput', 'insertText', character))) {
      setNativeValue(element, element.value + character);
      element.dispatchEvent(inputEvent('input', 'insertText', character));
    }
  }
  element.dispatchEvent(new KeyboardEvent('keyup', keyInit(character)));
}

function tabbables(): HTMLElement[] {
  return [
    ...document.querySelectorAll<HTMLElement>('a[href],button,input,select,textarea,[tabindex],[contenteditable]'),
  ].filter((element) => element.tabIndex >= 0 && !element.matches(':disabled') && element.getClientRects().length > 0);
}

/** What the browser would do after an unprevented keydown: synthetic keys have no default action of their own. */
function defaultKeyAction(element: Element, key: string, modifiers: Modifiers): void {
  const shift = modifiers.shiftKey;
  const command = modifiers.ctrlKey || modifiers.metaKey;
  if (command || modifiers.altKey) {
    if (command && key.toLowerCase() === 'a') selectAll(element);
    return;
  }
  if (key === 'Enter' && element instanceof HTMLInputElement && element.form) element.form.requestSubmit();
  else if (
    (key === 'Enter' || key === ' ') &&
    element instanceof HTMLElement &&
    element.matches('button,[role=button],a[href],summary,[role=tab],[role=link]')
  )
    element.click();
  else if (
    key === ' ' &&
    element instanceof HTMLInputElement &&
    (element.type === 'checkbox' || element.type === 'radio')
  )
    element.click();
  else if (key === 'Escape') {
    const dialog = document.querySelector<HTMLDialogElement>('dialog[open]');
    if (dialog && dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) dialog.close();
  } else if (key === 'Tab') {
    const order = tabbables();
    const next = order[(order.indexOf(element as HTMLElement) + (shift ? -1 : 1) + order.length) % order.length];
    next?.focus();
  } else if (key === 'Backspace' && isTextControl(element) && element.value !== '') {
    setNativeValue(element, element.value.slice(0, -1));
    element.dispatchEvent(inputEvent('input', 'deleteContentBackward', null));
  } else if (key.length === 1 && isTextControl(element)) {
    setNativeValue(element, element.value + key);
    element.dispatchEvent(inputEvent('input', 'insertText', key));
  }
}

function selectAll(element: Element): void {
  if (isTextControl(element)) element.select();
  else document.execCommand('selectAll');
}

type Modifiers = Pick<KeyboardEventInit, 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey'>;

const MODIFIERS: Record<string, { key: string; flag: keyof Modifiers }> = {
  control: { key: 'Control', flag: 'ctrlKey' },
  ctrl: { key: 'Control', flag: 'ctrlKey' },
  shift: { key: 'Shift', flag: 'shiftKey' },
  alt: { key: 'Alt', flag: 'altKey' },
  option: { key: 'Alt', flag: 'altKey' },
  meta: { key: 'Meta', flag: 'metaKey' },
  cmd: { key: 'Meta', flag: 'metaKey' },
  command: { key: 'Meta', flag: 'metaKey' },
};

/**
 * A key or combination (`Enter`, `Escape`, `Shift+Tab`, `Control+A`, `a`) on the element that has focus: each
 * modifier goes down first and up last, as on a keyboard; a letter under Control stays lower case, as browsers report it.
 */
export function pressKey(element: Element, combination: string): void {
  const parts = combination.split('+');
  const last = parts.at(-1) === '' ? '+' : (parts.at(-1) ?? combination);
  const held = parts.slice(0, -1).flatMap((part) => MODIFIERS[part.trim().toLowerCase()] ?? []);
  const modifiers: Modifiers = {};
  const send = (type: 'keydown' | 'keyup', key: string) =>
    element.dispatchEvent(new KeyboardEvent(type, { ...keyInit(key), ...modifiers, code: codeOf(key) }));
  for (const modifier of held) {
    modifiers[modifier.flag] = true;
    send('keydown', modifier.key);
  }
  const key =
    last.length === 1 && /[a-z]/i.test(last) ? (modifiers.shiftKey ? last.toUpperCase() : last.toLowerCase()) : last;
  const allowed = send('keydown', key);
  if (allowed && key.length === 1 && !modifiers.ctrlKey && !modifiers.metaKey)
    element.dispatchEvent(new KeyboardEvent('keypress', { ...keyInit(key), ...modifiers }));
  if (allowed) defaultKeyAction(element, key, modifiers);
  send('keyup', key);
  for (const modifier of held.reverse()) {
    modifiers[modifier.flag] = false;
    send('keyup', modifier.key);
  }
}

function codeOf(key: string): string {
  if (['Control', 'Shift', 'Alt', 'Meta'].includes(key)) return `${key}Left`;
  return keyInit(key).code ?? '';
}

/** Picks an option of a `<select>` by its label or value; false when there is none. */
export function selectOption(select: HTMLSelectElement, option: string): boolean {
  const wanted = [...select.options].find(
    (candidate) => candidate.label.trim() === option || candidate.value === option,
  );
  if (wanted === undefined) return false;
  select.focus({ preventScroll: true });
  setNativeValue(select, wanted.value);
  select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  return true;
}

/** Scrolls the nearest scrollable ancestor of the element (or the page) by `deltaY` CSS px. */
export function scrollBy(element: Element | undefined, deltaY: number): void {
  for (let node = element ?? null; node !== null; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (/(auto|scroll)/.test(style.overflowY) && node.scrollHeight > node.clientHeight) {
      node.scrollBy({ top: deltaY, behavior: 'instant' });
      return;
    }
  }
  window.scrollBy({ top: deltaY, behavior: 'instant' });
}
