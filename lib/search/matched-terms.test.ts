import { Charset, Encoder } from 'flexsearch';
import { describe, expect, it } from 'vitest';
import { matchedTerms } from './matched-terms';

const encoder = new Encoder(Charset.LatinAdvanced);

describe('matchedTerms', () => {
  it('names the words a query matched, by prefix and by sound, each once and in lower case', () => {
    const text = 'Where did the Lighthouse keeper file his ledger? The lighthouse was dark.';
    expect(matchedTerms(text, 'lighthouse ledg', encoder)).toEqual(['lighthouse', 'ledger']);
    expect(matchedTerms('Summarise the invoice from March', 'invoyce sumarize', encoder)).toEqual([
      'summarise',
      'invoice',
    ]);
  });

  it('names nothing the query did not match', () => {
    expect(matchedTerms('a car in the street', 'cat', encoder)).toEqual([]);
  });
});
