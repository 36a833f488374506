import { describe, expect, it } from 'vitest';
import { highlightTerms } from './highlight-terms';

describe('highlightTerms', () => {
  it('marks every match of any term, whatever its case, and keeps the rest as it is', () => {
    expect(highlightTerms('Revenue rose; the revenue table', ['revenue', 'table'])).toEqual([
      { text: 'Revenue', match: true },
      { text: ' rose; the ', match: false },
      { text: 'revenue', match: true },
      { text: ' ', match: false },
      { text: 'table', match: true },
    ]);
  });

  it('prefers the longer term where two start at one place, and takes terms as text, not patterns', () => {
    expect(highlightTerms('invoices (a+b)', ['invoice', 'invoices', 'a+b'])).toEqual([
      { text: 'invoices', match: true },
      { text: ' (', match: false },
      { text: 'a+b', match: true },
      { text: ')', match: false },
    ]);
    expect(highlightTerms('plain', [])).toEqual([{ text: 'plain', match: false }]);
  });
});
