import { pageRefusal, siteLabel } from '../page-tools/choose-page';
import type { CurrentPageView } from '../protocol/current-page';

/** What a new conversation offers for the page in front: a task to try on it, or why there is none. */
export type PageSuggestion = { kind: 'task'; text: string } | { kind: 'none'; note: string };

const MAX_TITLE_CHARACTERS = 60;

/**
 * The page task to suggest, from the page's address and title; undefined while the page is not known yet. The
 * wording is one the offline demo model answers ("what is on this page"), so trying it there does something real.
 */
export function pageSuggestion(page: CurrentPageView | undefined): PageSuggestion | undefined {
  if (!page) return undefined;
  if (!page.ok) return noPage(page.reason);
  const refusal = pageRefusal(page.url);
  if (refusal) return noPage(refusal);
  const name = pageName(page.title, page.url);
  if (name) return { kind: 'task', text: `What is on this page, “${name}”?` };
  if (page.origin === 'file://') return { kind: 'task', text: 'What is on this page?' };
  return { kind: 'task', text: `What is on this page at ${siteLabel(page.origin)}?` };
}

function noPage(reason: string): PageSuggestion {
  return { kind: 'none', note: `Page tasks need a web page in front. ${reason}`.trim() };
}

/** The page's title, shortened at a word; a file's name when a local file has none; '' when there is neither. */
function pageName(title: string, url: string): string {
  const cleaned = title.replace(/\s+/g, ' ').trim();
  // A page without a title gets its address as the tab's title, which says nothing the host does not.
  if (cleaned && withoutScheme(cleaned) !== withoutScheme(url)) return shortened(cleaned);
  const parsed = URL.parse(url);
  if (parsed?.protocol !== 'file:') return '';
  const fileName = parsed.pathname.split('/').at(-1) ?? '';
  return shortened(safeDecode(fileName));
}

function withoutScheme(address: string): string {
  return address.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/$/, '');
}

function shortened(text: string): string {
  if (text.length <= MAX_TITLE_CHARACTERS) return text;
  const cut = text.slice(0, MAX_TITLE_CHARACTERS);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > MAX_TITLE_CHARACTERS / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
