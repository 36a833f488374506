import { describe, expect, it } from 'vitest';
import { pageSuggestion } from '../../lib/panel/page-suggestion';
import { pageRequestOf } from './page-request';

describe("the panel's page suggestion in the offline demo", () => {
  it('is a request the demo answers by describing the page', () => {
    const pages = [
      { url: 'http://127.0.0.1:4321/form.html', title: 'Sign up', origin: 'http://127.0.0.1' },
      { url: 'https://shop.example.com/cart', title: '', origin: 'https://shop.example.com' },
      { url: 'file:///home/ada/notes.html', title: '', origin: 'file://' },
      { url: 'https://example.com/', title: 'Click here to press the button', origin: 'https://example.com' },
    ];
    for (const page of pages) {
      const suggestion = pageSuggestion({ ok: true, access: true, mode: 'ask', ...page });
      expect(suggestion?.kind).toBe('task');
      expect(pageRequestOf(suggestion?.kind === 'task' ? suggestion.text : '')).toEqual({ kind: 'describe' });
    }
  });
});
