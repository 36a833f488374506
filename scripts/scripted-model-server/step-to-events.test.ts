import { describe, expect, it } from 'vitest';
import { splitArgumentsIntoDeltas, splitTextIntoDeltas, stepToEvents } from './step-to-events';

describe('splitTextIntoDeltas', () => {
  it('splits into words that keep their trailing whitespace', () => {
    expect(splitTextIntoDeltas('Speed is  now 12.')).toEqual(['Speed ', 'is  ', 'now ', '12.']);
  });

  it('cuts long runs without spaces at code point boundaries', () => {
    const text = '粒子场正在运行速度是十二米每秒🚀✨';
    const deltas = splitTextIntoDeltas(text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(text);
    for (const delta of deltas) expect(Buffer.from(delta, 'utf8').toString('utf8')).toBe(delta);
  });

  it('returns no deltas for empty text', () => {
    expect(splitTextIntoDeltas('')).toEqual([]);
  });
});

describe('splitArgumentsIntoDeltas', () => {
  it('cuts after every JSON punctuation character', () => {
    expect(splitArgumentsIntoDeltas('{"a":[1,true]}')).toEqual(['{', '"', 'a"', ':', '[', '1,', 'true]', '}']);
  });
});

describe('stepToEvents', () => {
  it('numbers tool call ids by turn, step and index unless an id is given', () => {
    const events = stepToEvents(
      {
        toolCalls: [
          { name: 'first', arguments: {} },
          { name: 'second', arguments: '{}', id: 'call_given' },
        ],
      },
      { turnIndex: 2, stepIndex: 1 },
    );
    const starts = events.filter((event) => event.type === 'tool-call-start');
    expect(starts).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_2_1_0', name: 'first' },
      { type: 'tool-call-start', index: 1, id: 'call_given', name: 'second' },
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
  });

  it('sends string arguments verbatim, even when they are not valid JSON', () => {
    const events = stepToEvents(
      { toolCalls: [{ name: 'broken', arguments: '{"a": tru' }] },
      { turnIndex: 0, stepIndex: 0 },
    );
    const argumentsText = events
      .map((event) => (event.type === 'tool-call-delta' ? event.argumentsDelta : ''))
      .join('');
    expect(argumentsText).toBe('{"a": tru');
  });

  it('streams reasoning before text and finishes with stop', () => {
    const events = stepToEvents({ text: 'Done.', reasoning: 'Think.' }, { turnIndex: 0, stepIndex: 0 });
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Think.' },
      { type: 'text-delta', text: 'Done.' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('leaves out the finish event for a truncated step', () => {
    const events = stepToEvents({ truncate: { text: 'half a' } }, { turnIndex: 0, stepIndex: 0 });
    expect(events).toEqual([
      { type: 'text-delta', text: 'half ' },
      { type: 'text-delta', text: 'a' },
    ]);
  });

  it('leaves out the finish event for a breakAfter step, whatever the break', () => {
    const events = stepToEvents({ breakAfter: { text: 'half a', error: 'malformed' } }, { turnIndex: 0, stepIndex: 0 });
    expect(events).toEqual([
      { type: 'text-delta', text: 'half ' },
      { type: 'text-delta', text: 'a' },
    ]);
  });

  it('streams reasoning, then text, then tool calls with ids under the given prefix', () => {
    const events = stepToEvents(
      { reasoning: 'Why.', text: 'Now.', toolCalls: [{ name: 'a', arguments: {} }] },
      { turnIndex: 1, stepIndex: 2 },
      { toolCallIdPrefix: 'toolu_' },
    );
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Why.' },
      { type: 'text-delta', text: 'Now.' },
      { type: 'tool-call-start', index: 0, id: 'toolu_1_2_0', name: 'a' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });
});
