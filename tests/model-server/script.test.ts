import { describe, expect, it } from 'vitest';
import { nothingMoreToSayText, pickStep, scriptSchema, type Script } from './script';

const script: Script = {
  turns: [
    { steps: [{ text: 'turn 0 step 0' }, { text: 'turn 0 step 1' }] },
    { steps: [{ text: 'turn 1 step 0' }] },
  ],
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

describe('scriptSchema', () => {
  it('accepts every step kind', () => {
    const result = scriptSchema.safeParse({
      name: 'all kinds',
      turns: [
        {
          steps: [
            { text: 'hello', reasoning: 'thinking', delayMs: 5 },
            { toolCalls: [{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: '{not json', id: 'call_b' }], text: 'calling' },
            { error: { status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '1' } } },
            { truncate: { text: 'cut' } },
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
    expect(result.error?.issues[0]?.message).toBe('A step needs one of the keys text, toolCalls, error, truncate.');
  });

  it('rejects a script without turns', () => {
    expect(scriptSchema.safeParse({ turns: [] }).success).toBe(false);
  });
});
