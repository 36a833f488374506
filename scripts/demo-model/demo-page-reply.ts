import { z } from 'zod';
import type { DemoCallRecord, DemoReply } from './demo-conversation';
import { nameWords, type PageRequest } from './page-request';
import { fencedText, pageTreeElements, type PageTreeElement } from './page-tree-lines';

const observationSchema = z.looseObject({
  ok: z.literal(true),
  observationId: z.string(),
  title: z.unknown().optional(),
  snapshot: z.unknown().optional(),
});
const actedSchema = z.looseObject({
  ok: z.literal(true),
  hit: z.looseObject({ role: z.string(), name: z.unknown().optional() }),
  urlBefore: z.string().optional(),
  urlAfter: z.string().optional(),
});
const pageFailureSchema = z.looseObject({
  ok: z.literal(false),
  code: z.string().optional(),
  reason: z.unknown().optional(),
  error: z.string().optional(),
});

const clickableRoles = new Set([
  'button',
  'link',
  'tab',
  'checkbox',
  'radio',
  'switch',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'treeitem',
]);
const summaryRoles = [
  ['heading', 'headings'],
  ['button', 'buttons'],
  ['link', 'links'],
] as const;

/**
 * One step of a page request: observe the page, then click the element whose name the words match. Only the
 * roles and names of the snapshot's lines are read; what the page's text says is never taken as a request.
 */
export function demoPageReply(request: PageRequest, calls: readonly DemoCallRecord[]): DemoReply {
  const observed = calls.find((record) => record.name === 'observePage');
  if (!observed) return call('observePage', {});
  const observation = observationSchema.safeParse(observed.output);
  if (!observation.success) return text(`I could not read the page: ${failureText(observed.output)}.`);
  const elements = pageTreeElements(observation.data.snapshot);
  if (request.kind === 'describe') return text(pageSummary(fencedText(observation.data.title), elements));
  const acted = calls.find((record) => record.name === 'actOnPage');
  if (acted) return text(actedText(acted.output));
  const clickable = elements.filter((element) => clickableRoles.has(element.role) && element.ref !== undefined);
  const best = bestMatch(request, clickable);
  const asked = request.words.join(' ');
  if (!best) return text(`Nothing on this page matches "${asked}". ${sawText(clickable)}`);
  if (best.disabled) return text(`The ${best.role} "${best.name}" is disabled, so I did not click it.`);
  return call('actOnPage', { observationId: observation.data.observationId, action: 'click', ref: best.ref });
}

/** The clickable element whose name holds every word: an exact name first, then the named role, then the shortest. */
function bestMatch(request: Extract<PageRequest, { kind: 'click' }>, elements: readonly PageTreeElement[]) {
  const wanted = request.words.join(' ');
  const ranked = elements
    .map((element) => ({ element, words: nameWords(element.name) }))
    .filter(({ words }) => request.words.every((word) => words.includes(word)))
    .map(({ element, words }) => ({
      element,
      score: (words.join(' ') === wanted ? 100 : 0) + (element.role === request.role ? 10 : 0) - words.length,
    }))
    .sort((left, right) => right.score - left.score);
  return ranked[0]?.element;
}

function actedText(output: unknown): string {
  const acted = actedSchema.safeParse(output);
  if (!acted.success) return `The click did not go through: ${failureText(output)}.`;
  const name = fencedText(acted.data.hit.name) ?? '';
  const moved =
    acted.data.urlAfter && acted.data.urlAfter !== acted.data.urlBefore
      ? ` The page is now ${acted.data.urlAfter}.`
      : '';
  return `Clicked the ${acted.data.hit.role} "${name}" (ok).${moved}`;
}

function failureText(output: unknown): string {
  const failed = pageFailureSchema.safeParse(output);
  if (!failed.success) return 'the result was not one I know';
  const code = failed.data.code ?? 'ERROR';
  const reason = fencedText(failed.data.reason) ?? (typeof failed.data.reason === 'string' ? failed.data.reason : '');
  const error = failed.data.error ?? '';
  const detail = reason || (error.startsWith(`${code}: `) ? error.slice(code.length + 2) : error);
  return detail ? `${code} (${detail.replace(/[.\s]+$/, '')})` : code;
}

function pageSummary(title: string | undefined, elements: readonly PageTreeElement[]): string {
  const parts = summaryRoles.flatMap(([role, plural]) => {
    const names = elements.filter((element) => element.role === role && element.name).map((element) => element.name);
    return names.length > 0 ? [`${plural} ${namesText(names)}`] : [];
  });
  const page = title ? `"${title}"` : 'this page';
  if (parts.length === 0) return `On ${page} I see no headings, buttons or links by name.`;
  return `On ${page} I see ${parts.join('; ')}. Say "click …" with a name to press one.`;
}

function sawText(elements: readonly PageTreeElement[]): string {
  const names = elements.filter((element) => element.name).map((element) => `${element.role} "${element.name}"`);
  if (names.length === 0) return 'I saw nothing clickable with a name.';
  const shown = names.slice(0, 5).join(', ');
  return `I saw ${shown}${names.length > 5 ? ` and ${names.length - 5} more` : ''}.`;
}

function namesText(names: readonly string[]): string {
  const shown = names.slice(0, 4).map((name) => `"${name}"`);
  return `${shown.join(', ')}${names.length > 4 ? ` and ${names.length - 4} more` : ''}`;
}

function call(name: string, input: Record<string, unknown>): DemoReply {
  return { kind: 'tool-calls', calls: [{ name, arguments: input }] };
}

function text(content: string): DemoReply {
  return { kind: 'text', text: content };
}
