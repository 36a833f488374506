import { describeElement } from './accessibility-tree';
import { click, isEditable, typeText } from './dispatch-input';
import { roleOf } from './element-role';
import { actionPoint, hitTest } from './hit-test';
import { isRendered } from './visibility';

const LIST_WAIT_MS = 3000;
const POLL_MS = 50;

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Whether `select` can act on the element without being a `<select>`: an ARIA combobox or listbox. */
export function isCustomSelect(element: Element): boolean {
  const role = roleOf(element);
  return role === 'combobox' || role === 'listbox';
}

/** The popups a combobox names (`aria-controls`, `aria-owns`), else every listbox of the document. */
function popupsOf(combobox: Element): Element[] {
  const ids = `${combobox.getAttribute('aria-controls') ?? ''} ${combobox.getAttribute('aria-owns') ?? ''}`;
  const named = ids
    .split(/\s+/)
    .flatMap((id) => (id ? (document.getElementById(id) ?? []) : []))
    .filter((element) => element !== combobox);
  return named.length > 0 ? named : [...document.querySelectorAll('[role=listbox]')];
}

function optionsIn(containers: Element[]): Element[] {
  return containers.flatMap((container) =>
    [...container.querySelectorAll('[role=option]')].filter((option) => isRendered(option)),
  );
}

const labelOf = (option: Element) => describeElement(option).name.trim();

function matching(options: Element[], wanted: string): Element | undefined {
  const exact = options.find((option) => labelOf(option) === wanted || option.getAttribute('data-value') === wanted);
  return exact ?? options.find((option) => labelOf(option).toLowerCase() === wanted.toLowerCase());
}

/** Clicks an option where a person would, after scrolling it into its list's view; why not, as a string. */
function clickOption(option: Element): true | string {
  option.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
  const point = actionPoint(option);
  if (point === undefined) return `The option "${labelOf(option)}" has no visible box.`;
  const tested = hitTest(option, point.x, point.y);
  if (!tested.ok) return `The option "${labelOf(option)}" is covered.`;
  click(tested.hit, point.x, point.y);
  return true;
}

/** The editable field of a combobox: itself, or the input inside an ARIA 1.1 combobox wrapper. */
function fieldOf(combobox: Element): Element | undefined {
  if (isEditable(combobox)) return combobox;
  const inner = combobox.querySelector('input,textarea,[contenteditable]');
  return inner && isEditable(inner) ? inner : undefined;
}

/**
 * `select` on a custom widget, as a person picks: a listbox's option is clicked; a combobox is typed into (an
 * editable one) or clicked open, then the option with that label is clicked once its listbox shows it. True, or why not.
 */
export async function pickOption(
  element: Element,
  wanted: string,
  at: { x: number; y: number },
): Promise<true | string> {
  if (roleOf(element) === 'listbox') {
    const option = matching(optionsIn([element]), wanted);
    return option ? clickOption(option) : noOption(wanted, optionsIn([element]));
  }
  const field = fieldOf(element);
  const already = matching(optionsIn(popupsOf(element)), wanted);
  if (already === undefined) {
    if (field) typeText(field, wanted);
    else click(element, at.x, at.y);
  }
  for (let waited = 0; ; waited += POLL_MS) {
    const options = optionsIn(popupsOf(element));
    const option = matching(options, wanted);
    if (option) return clickOption(option);
    if (waited >= LIST_WAIT_MS) return noOption(wanted, options);
    await sleep(POLL_MS);
  }
}

function noOption(wanted: string, options: Element[]): string {
  const shown = options.slice(0, 20).map((option) => `"${labelOf(option)}"`);
  return shown.length > 0
    ? `No option "${wanted}"; the list shows ${shown.join(', ')}.`
    : `No option "${wanted}": no list of options opened.`;
}
