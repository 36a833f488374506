import { describe, expect, it } from 'vitest';
import { locateStep, nothingMoreToSayText, pickStep, scriptSchema, type Script } from './script';

const script: Script = {
  turns: [{ steps: [{ text: 'turn 0 step 0' }, { text: 'turn 0 step 1' }] }, { steps: [{ text: 'turn 1 step 0' }] }],
};

const roles = (...names: string[]) => names.map((role) => ({ role }));

describe('pickStep', () => {
  it('answers the first user message with the first step of the first turn', () => {
    const picked = pickStep(script, roles('system', 'user'));
    expect(picked).toEqual({ step: { text: 'turn 0 step 0' }, turnIndex: 0, stepIndex: 0, isFallback: false });
  });

  it('counts assistant messages after the last user message to find the step', () => {
    const picked = pickStep(script, roles('system', 'user', 'assistant', 'tool'));
    expect(picked.step).toEqual({ text: 'turn 0 step 1' });
    expect(picked.stepIndex).toBe(1);
  });

  it('counts user messages to find the turn, ignoring earlier assistant messages', () => {
    const picked = pickStep(script, roles('user', 'assistant', 'tool', 'assistant', 'user'));
    expect(picked).toEqual({ step: { text: 'turn 1 step 0' }, turnIndex: 1, stepIndex: 0, isFallback: false });
  });

  it('wraps around to the first turn when there are more user messages than turns', () => {
    const picked = pickStep(script, roles('user', 'assistant', 'user', 'assistant', 'user'));
    expect(picked.turnIndex).toBe(0);
    expect(picked.step).toEqual({ text: 'turn 0 step 0' });
  });

  it('treats a request without user messages as the first turn', () => {
    expect(pickStep(script, roles('system')).turnIndex).toBe(0);
  });

  it('falls back to a fixed text when the turn has no step left', () => {
    const picked = pickStep(script, roles('user', 'assistant', 'user', 'assistant'));
    expect(picked).toEqual({ step: { text: nothingMoreToSayText }, turnIndex: 1, stepIndex: 1, isFallback: true });
  });

  it('gives the same answer for the same messages, so retries are deterministic', () => {
    const messages = roles('user', 'assistant', 'tool');
    expect(pickStep(script, messages)).toEqual(pickStep(script, messages));
  });
});

describe('continuation messages', () => {
  it('neither start a turn nor reset the step count', () => {
    const messages = [{ role: 'user' }, { role: 'assistant' }, { role: 'user', continuation: true }];
    expect(locateStep(script, messages)).toEqual({ turnIndex: 0, stepIndex: 1 });
    expect(pickStep(script, [...messages, { role: 'assistant' }, { role: 'user' }])).toMatchObject({
      turnIndex: 1,
      stepIndex: 0,
    });
  });
});

describe('once steps', () => {
  const retryScript: Script = {
    turns: [
      {
        steps: [
          { error: { status: 429 }, once: true },
          { truncate: { text: 'cut' }, once: true },
          { text: 'first' },
          { breakAfter: { text: 'half', error: 'network' }, once: true },
          { text: 'second' },
          { error: { status: 500 }, once: true },
        ],
      },
    ],
  };

  it('are served to the first attempts at the position of the next step, which then answers every later attempt', () => {
    const firstPosition = roles('user');
    expect([0, 1, 2, 3].map((attempt) => pickStep(retryScript, firstPosition, attempt).step)).toEqual([
      { error: { status: 429 }, once: true },
      { truncate: { text: 'cut' }, once: true },
      { text: 'first' },
      { text: 'first' },
    ]);
  });

  it('take no position of their own', () => {
    const secondPosition = roles('user', 'assistant', 'tool');
    expect(pickStep(retryScript, secondPosition, 0)).toMatchObject({
      stepIndex: 1,
      step: { breakAfter: { text: 'half', error: 'network' } },
    });
    expect(pickStep(retryScript, secondPosition, 1)).toMatchObject({
      stepIndex: 1,
      step: { text: 'second' },
      isFallback: false,
    });
  });

  it('at the end of a turn are followed by the fallback', () => {
    const thirdPosition = roles('user', 'assistant', 'tool', 'assistant', 'tool');
    expect(pickStep(retryScript, thirdPosition, 0)).toMatchObject({
      stepIndex: 2,
      step: { error: { status: 500 } },
      isFallback: false,
    });
    expect(pickStep(retryScript, thirdPosition, 1)).toMatchObject({
      stepIndex: 2,
      step: { text: nothingMoreToSayText },
      isFallback: true,
    });
  });
});

describe('scriptSchema', () => {
  it('accepts every step kind', () => {
    const result = scriptSchema.safeParse({
      name: 'all kinds',
      turns: [
        {
          steps: [
            { text: 'hello', reasoning: 'thinking', delayMs: 5 },
            {
              toolCalls: [
                { name: 'a', arguments: { x: 1 } },
                { name: 'b', arguments: '{not json', id: 'call_b' },
              ],
              text: 'calling',
            },
            { error: { status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '1' } } },
            { truncate: { text: 'cut' } },
            { breakAfter: { text: 'half', error: 'malformed' }, once: true },
            { error: { status: 429, message: 'slow', quotaExhausted: true, retryDelaySeconds: 2 }, once: true },
            { toolCalls: [{ name: 'a', arguments: {} }], reasoning: 'why' },
          ],
        },
      ],
    });
    expect(result.success).toBe(true);
  });

  it('names the step kind and its problem when a step is invalid', () => {
    const result = scriptSchema.safeParse({ turns: [{ steps: [{ toolCalls: [{ name: '' }] }] }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('Invalid toolCalls step');
    expect(result.error?.issues[0]?.path).toEqual(['turns', 0, 'steps', 0]);
  });

  it('rejects a step without a known key', () => {
    const result = scriptSchema.safeParse({ turns: [{ steps: [{ say: 'hi' }] }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'A step needs one of the keys text, toolCalls, error, truncate, breakAfter, cutAt.',
    );
  });

  it('rejects once on steps that do not fail, and unknown break kinds', () => {
    const onceText = scriptSchema.safeParse({ turns: [{ steps: [{ text: 'hi', once: true }] }] });
    expect(onceText.error?.issues[0]?.message).toBe('Unrecognized key: "once"');
    const badBreak = scriptSchema.safeParse({ turns: [{ steps: [{ breakAfter: { text: 'x', error: 'fire' } }] }] });
    expect(badBreak.error?.issues[0]?.message).toContain('Invalid breakAfter step');
  });

  it('rejects a script without turns', () => {
    expect(scriptSchema.safeParse({ turns: [] }).success).toBe(false);
  });
});
