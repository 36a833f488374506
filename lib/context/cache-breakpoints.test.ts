import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../protocol/json-value';
import { ageToolResults, DEFAULT_AGING_POLICY } from './age-tool-results';
import { cachedSystem, withCacheBreakpoints } from './cache-breakpoints';

const MARK = { anthropic: { cacheControl: { type: 'ephemeral' } } };

function observationStep(index: number): ModelMessage[] {
  const toolCallId = `call-${index}`;
  const value: JsonObject = {
    ok: true,
    observation: { observationId: `o${index}`, tabId: 1, url: 'https://site.test/', snapshot: 'x'.repeat(400) },
  };
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName: 'actOnPage', input: {} }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId, toolName: 'actOnPage', output: { type: 'json', value } }],
    },
  ];
}

const marked = (messages: ModelMessage[]) =>
  messages.flatMap((message, index) => (message.providerOptions?.anthropic ? [index] : []));

describe('withCacheBreakpoints', () => {
  it('marks the system prompt, the last message, and the message before the oldest observation in full', () => {
    expect(cachedSystem('Be brief.')).toEqual({ role: 'system', content: 'Be brief.', providerOptions: MARK });
    const history: ModelMessage[] = [{ role: 'user', content: 'go' }];
    for (let index = 0; index < 8; index++) history.push(...observationStep(index));
    const sent = withCacheBreakpoints(ageToolResults(history, { ...DEFAULT_AGING_POLICY, observationsInFull: 5 }));
    // Eight observations in batches of five: the first five are stubs, the newest three in full (messages 12, 14, 16).
    expect(marked(sent)).toEqual([11, 16]);
    expect(sent[16].providerOptions).toEqual(MARK);
    expect(sent.map(({ providerOptions: _marks, ...rest }) => rest)).toEqual(
      ageToolResults(history, { ...DEFAULT_AGING_POLICY, observationsInFull: 5 }),
    );
  });

  it('keeps other provider options of a message and marks only the last message of a history without pages', () => {
    const history: ModelMessage[] = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
      { role: 'user', content: 'again', providerOptions: { openai: { user: 'u' } } },
    ];
    const sent = withCacheBreakpoints(history);
    expect(marked(sent)).toEqual([2]);
    expect(sent[2].providerOptions).toEqual({ openai: { user: 'u' }, ...MARK });
    expect(withCacheBreakpoints([])).toEqual([]);
  });

  it('marks the same messages each time it is given the same history, so a replay sends the same bytes', () => {
    const history: ModelMessage[] = [{ role: 'user', content: 'go' }];
    for (let index = 0; index < 6; index++) history.push(...observationStep(index));
    expect(JSON.stringify(withCacheBreakpoints(ageToolResults(structuredClone(history))))).toBe(
      JSON.stringify(withCacheBreakpoints(ageToolResults(history))),
    );
  });
});
