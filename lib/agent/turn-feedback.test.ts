import { describe, expect, it } from 'vitest';
import type { TurnOutcome } from './turn-outcome';
import type { TurnHandle } from './turn-driver';
import { followTurn, steerTurn } from './turn-feedback';

function handle(parts: { recorded?: Promise<void>; done?: Promise<TurnOutcome>; steer?: Promise<void> }): TurnHandle {
  return {
    turnId: 't',
    stop: () => undefined,
    steer: () => parts.steer ?? Promise.resolve(),
    pause: () => Promise.resolve(),
    recorded: parts.recorded ?? Promise.resolve(),
    done: parts.done ?? Promise.resolve('stop'),
  };
}

function recorder() {
  const seen: string[] = [];
  let settle: () => void = () => undefined;
  const over = new Promise<void>((resolve) => (settle = resolve));
  return {
    seen,
    over,
    feedback: {
      unsent: (text: string) => seen.push(`unsent: ${text}`),
      failed: (message: string) => seen.push(`failed: ${message}`),
      ended: () => {
        seen.push('ended');
        settle();
      },
    },
  };
}

/** Lets every callback already due run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('followTurn', () => {
  it('says only that the turn ended when it went well', async () => {
    const { seen, over, feedback } = recorder();
    followTurn(handle({}), 'Hello', feedback);
    await over;
    expect(seen).toEqual(['ended']);
  });

  it('gives the text back and shows why when the message could not be recorded', async () => {
    const failure = Promise.reject(new Error('The conversation could not be saved: disk full'));
    const { seen, over, feedback } = recorder();
    followTurn(handle({ recorded: failure, done: failure.then(() => 'stop' as const) }), 'Hello', feedback);
    await over;
    expect(seen).toEqual(['unsent: Hello', 'failed: The conversation could not be saved: disk full', 'ended']);
  });

  it('keeps the text when the turn was recorded and failed later', async () => {
    const { seen, over, feedback } = recorder();
    followTurn(handle({ done: Promise.reject(new Error('The endpoint refused the request.')) }), 'Hello', feedback);
    await over;
    expect(seen).toEqual(['failed: The endpoint refused the request.', 'ended']);
  });

  it('reports a rejection that is not an Error by its text', async () => {
    const { seen, over, feedback } = recorder();
    followTurn(handle({ done: Promise.reject('offline') }), 'Hello', feedback);
    await over;
    expect(seen).toEqual(['failed: offline', 'ended']);
  });
});

describe('steerTurn', () => {
  it('reports nothing when the steer was submitted', async () => {
    const { seen, feedback } = recorder();
    steerTurn(handle({}), 'Faster.', feedback);
    await settled();
    expect(seen).toEqual([]);
  });

  it('submits the steer under the id it is given, so the panel can follow what becomes of it', async () => {
    const steered: [string, string | undefined][] = [];
    const { feedback } = recorder();
    steerTurn(
      { ...handle({}), steer: (text, commandId) => (steered.push([text, commandId]), Promise.resolve()) },
      'Faster.',
      feedback,
      'steer-1',
    );
    await settled();
    expect(steered).toEqual([['Faster.', 'steer-1']]);
  });

  it('says the steer failed and gives its text back', async () => {
    const { seen, feedback } = recorder();
    steerTurn(handle({ steer: Promise.reject(new Error('The turn has ended.')) }), 'Faster.', feedback);
    await settled();
    expect(seen).toEqual(['failed: Could not add to the turn: The turn has ended.', 'unsent: Faster.']);
  });
});
