import type { JsonValue } from '../protocol/json-value';
import { formatFileSize } from '../files/format-file-size';
import type { SiteMode } from '../settings/site-modes-store';
import type { PageChoice } from './choose-page';
import { siteLabel, siteOrigin, pageRefusal } from './choose-page';
import type { ObservationRecord, RefRecord } from './page-observation';
import { isPageToolName } from './page-tool-inputs';

/** What the gate of a page tool call decided; `siteOrigin` marks a request for access to that site. */
export type PageGate = { required: false } | { required: true; summary: string; siteOrigin?: string; always: boolean };

export interface PageGateFacts {
  page: PageChoice;
  /** Whether the extension holds the site's host permission. */
  access: boolean;
  mode: SiteMode;
  observation?: ObservationRecord;
  /** For uploadFile: the attached file it names, or null when no file of that name is attached in this conversation. */
  file?: { name: string; size: number } | null;
}

type Input = Record<string, JsonValue>;

const CLIPBOARD_KEYS = /^(control|ctrl|meta|cmd|command)\+(c|v|x|insert)$|^shift\+(insert|delete)$/i;

/**
 * Whether a page tool call waits for the user. Fails closed: a call it cannot judge asks. Navigation to another
 * origin, typing into a password field, choosing a file and the clipboard ask always; the rest follows the
 * site's mode; a site without access asks for access first.
 */
export function pageGate(toolName: string, input: JsonValue, facts: PageGateFacts): PageGate {
  if (!isPageToolName(toolName)) return { required: true, summary: `Run ${toolName}.`, always: true };
  const record: Input = input && typeof input === 'object' && !Array.isArray(input) ? input : {};
  const { page } = facts;
  if (!page.ok) return { required: false };
  const on = siteLabel(page.origin);
  const action = describeAction(toolName, record, facts);
  if (!facts.access)
    return {
      required: true,
      siteOrigin: page.origin,
      summary: `Let Splitbrain read and act on ${on}?${toolName === 'observePage' ? '' : ` Then: ${action.text}`}`,
      always: true,
    };
  if (toolName === 'observePage') return { required: false };
  if (action.always) return { required: true, summary: action.text, always: true };
  return facts.mode === 'allow' ? { required: false } : { required: true, summary: action.text, always: false };
}

function describeAction(toolName: string, input: Input, facts: PageGateFacts): { text: string; always: boolean } {
  const on = facts.page.ok ? siteLabel(facts.page.origin) : 'the page';
  switch (toolName) {
    case 'observePage':
      return { text: `Read ${on}.`, always: false };
    case 'navigatePage':
      return describeNavigation(String(input.url ?? ''), facts);
    case 'pageBack':
      // Where "back" leads is not known before it happens: it may be another site, so it always asks.
      return { text: `Go back one page from ${on} (the previous page may be another site).`, always: true };
    case 'callPageTool':
      return {
        text: `Call the page's tool "${String(input.name)}" on ${on} with ${quote(JSON.stringify(input.arguments ?? {}))}.`,
        always: false,
      };
    case 'uploadFile':
      return describeUpload(input, facts);
    default:
      return describeAct(input, facts);
  }
}

function describeNavigation(url: string, facts: PageGateFacts): { text: string; always: boolean } {
  const refusal = pageRefusal(url);
  if (refusal || !facts.page.ok) return { text: `Open ${quote(url)}.`, always: true };
  const other = siteOrigin(url) !== facts.page.origin || new URL(url).protocol === 'file:';
  return other
    ? { text: `Open ${quote(url)}, another site than ${siteLabel(facts.page.origin)}.`, always: true }
    : { text: `Open ${quote(url)}.`, always: false };
}

function describeAct(input: Input, facts: PageGateFacts): { text: string; always: boolean } {
  const action = String(input.action ?? 'act on');
  const known = typeof input.ref === 'string' ? facts.observation?.refs[input.ref] : undefined;
  const target = describeTarget(input, known);
  const on = facts.page.ok ? ` on ${siteLabel(facts.page.origin)}` : '';
  const key = typeof input.key === 'string' ? input.key : '';
  if (action === 'press' && CLIPBOARD_KEYS.test(key.replace(/\s/g, '')))
    return { text: `Press ${key} in ${target}${on} (uses the clipboard).`, always: true };
  if (known?.sensitive === 'file' || /file/i.test(String(input.selector ?? '')))
    return { text: `${capitalized(action)} ${target}${on} (chooses a file to upload).`, always: true };
  if (action === 'type') {
    const typed = `Type ${quote(String(input.text ?? ''))} into ${target}${on}`;
    if (known?.sensitive === 'password') return { text: `${typed} (a password field).`, always: true };
    // Without a ref of a known field the runtime cannot tell a password field: ask.
    if (!known) return { text: `${typed} (the field's kind is not known).`, always: true };
    return { text: `${typed}.`, always: false };
  }
  if (action === 'select')
    return { text: `Select ${quote(String(input.option ?? ''))} in ${target}${on}.`, always: false };
  if (action === 'drag') {
    const to = typeof input.toRef === 'string' ? facts.observation?.refs[input.toRef] : undefined;
    const onto = to ? `${to.role} ${quote(to.name)}` : quote(String(input.toRef ?? ''));
    return { text: `Drag ${target} onto ${onto}${on}.`, always: false };
  }
  if (action === 'press') return { text: `Press ${key || 'a key'} in ${target}${on}.`, always: false };
  if (action === 'scroll') return { text: `Scroll ${target}${on} by ${Number(input.deltaY ?? 0)} px.`, always: false };
  return { text: `${capitalized(action)} ${target}${on}.`, always: false };
}

/** An upload always asks: which file, how large, into what and on which site are on the card. */
function describeUpload(input: Input, facts: PageGateFacts): { text: string; always: true } {
  const on = facts.page.ok ? siteLabel(facts.page.origin) : 'the page';
  const known = typeof input.ref === 'string' ? facts.observation?.refs[input.ref] : undefined;
  const file = facts.file
    ? `${quote(facts.file.name)} (${formatFileSize(facts.file.size)})`
    : `${quote(String(input.file ?? ''))} (not a file attached in this conversation)`;
  return { text: `Upload ${file} into ${describeTarget(input, known)} on ${on}.`, always: true };
}

function describeTarget(input: Input, known: RefRecord | undefined): string {
  if (known) return `${known.role} ${quote(known.name)}`;
  if (typeof input.ref === 'string') return `the element ${input.ref} (not in that observation)`;
  if (typeof input.selector === 'string') return `the element at ${quote(input.selector)}`;
  if (typeof input.role === 'string') return `${input.role} ${quote(String(input.name ?? ''))}`;
  if (typeof input.x === 'number' && typeof input.y === 'number')
    return `the point (${input.x}, ${input.y}) in ${String(input.coordinateSpace ?? 'an unnamed space')}`;
  return 'the page';
}

function quote(text: string): string {
  const short = text.length > 120 ? `${text.slice(0, 119)}…` : text;
  return `"${short}"`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
