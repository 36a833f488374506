import { describe, expect, it } from 'vitest';
import type { CurrentPageView } from '../protocol/current-page';
import { pageSuggestion } from './page-suggestion';

function webPage(url: string, title: string, access = true): CurrentPageView {
  const parsed = new URL(url);
  const origin = parsed.protocol === 'file:' ? 'file://' : `${parsed.protocol}//${parsed.hostname}`;
  return { ok: true, url, title, origin, access, mode: 'ask' };
}

describe('pageSuggestion', () => {
  it('suggests asking what is on the page, by its title', () => {
    expect(pageSuggestion(webPage('http://127.0.0.1:4321/form.html', 'Sign up'))).toEqual({
      kind: 'task',
      text: 'What is on this page, “Sign up”?',
    });
  });

  it('suggests it on a site not granted yet too (the first page tool asks for access)', () => {
    expect(pageSuggestion(webPage('https://example.com/', 'Example Domain', false))).toEqual({
      kind: 'task',
      text: 'What is on this page, “Example Domain”?',
    });
  });

  it('collapses the whitespace of a title and shortens a long one at a word', () => {
    const long = 'An   unusually long article title\nthat goes on and on about every detail of the subject at hand';
    const suggestion = pageSuggestion(webPage('https://news.example.org/a', long));
    expect(suggestion).toEqual({
      kind: 'task',
      text: 'What is on this page, “An unusually long article title that goes on and on about…”?',
    });
  });

  it('names the host when the page has no title, or only its address as the tab title', () => {
    const expected = { kind: 'task', text: 'What is on this page at shop.example.com?' };
    expect(pageSuggestion(webPage('https://shop.example.com/cart', ''))).toEqual(expected);
    expect(pageSuggestion(webPage('https://shop.example.com/cart', '   '))).toEqual(expected);
    expect(pageSuggestion(webPage('https://shop.example.com/cart', 'shop.example.com/cart'))).toEqual(expected);
    expect(pageSuggestion(webPage('https://shop.example.com/', 'https://shop.example.com/'))).toEqual(expected);
  });

  it('names a local file without a title by its file name', () => {
    expect(pageSuggestion(webPage('file:///home/ada/My%20notes.html', 'file:///home/ada/My%20notes.html'))).toEqual({
      kind: 'task',
      text: 'What is on this page, “My notes.html”?',
    });
    expect(pageSuggestion(webPage('file:///', ''))).toEqual({ kind: 'task', text: 'What is on this page?' });
  });

  it('says why there is no page task where no ordinary web page is in front', () => {
    expect(pageSuggestion({ ok: false, reason: 'No web page is open in this window.' })).toEqual({
      kind: 'none',
      note: 'Page tasks need a web page in front. No web page is open in this window.',
    });
    expect(pageSuggestion({ ok: false, reason: 'The browser does not say which page this tab shows.' })).toEqual({
      kind: 'none',
      note: 'Page tasks need a web page in front. The browser does not say which page this tab shows.',
    });
  });

  it('refuses an address the page tools may not act on even when it arrives as a page', () => {
    expect(pageSuggestion(webPage('chrome-extension://abc/options.html', 'Options'))).toEqual({
      kind: 'none',
      note: 'Page tasks need a web page in front. This is an extension page; extensions may not act on it.',
    });
    expect(pageSuggestion(webPage('about:blank', ''))?.kind).toBe('none');
    expect(pageSuggestion(webPage('https://chromewebstore.google.com/detail/x', 'Store'))?.kind).toBe('none');
  });

  it('says nothing while the page is not known yet', () => {
    expect(pageSuggestion(undefined)).toBeUndefined();
  });
});
