import { describe, expect, it } from 'vitest';
import { LatestValueSender, type SendOutcome } from './latest-value-sender';

/** A clock the test moves by hand, and requests the test answers by hand. */
function harness(intervalMs = 50) {
  let time = 0;
  const timers: { at: number; callback: () => void; handle: number }[] = [];
  const requests: { value: number; answer(result: string): void; fail(error: Error): void }[] = [];
  const settled: { outcome: SendOutcome<string>; value: number }[] = [];
  let nextHandle = 1;
  const sender = new LatestValueSender<number, string>({
    send: (value) => new Promise<string>((resolve, reject) => requests.push({ value, answer: resolve, fail: reject })),
    onSettled: (outcome, value) => settled.push({ outcome, value }),
    intervalMs,
    clock: {
      now: () => time,
      setTimer: (callback, delayMs) => {
        const handle = nextHandle++;
        timers.push({ at: time + delayMs, callback, handle });
        return handle;
      },
      clearTimer: (handle) => {
        const index = timers.findIndex((timer) => timer.handle === handle);
        if (index >= 0) timers.splice(index, 1);
      },
    },
  });
  const advance = async (ms: number) => {
    time += ms;
    for (const timer of timers.filter((candidate) => candidate.at <= time)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.callback();
    }
    await Promise.resolve();
  };
  const settle = async () => {
    for (let index = 0; index < 5; index++) await Promise.resolve();
  };
  return { sender, requests, settled, advance, settle };
}

describe('LatestValueSender', () => {
  it('sends the first value at once', () => {
    const { sender, requests } = harness();
    sender.push(1);
    expect(requests.map((request) => request.value)).toEqual([1]);
    expect(sender.busy).toBe(true);
  });

  it('never has two requests in flight and sends only the newest waiting value', async () => {
    const { sender, requests, settled, advance, settle } = harness();
    sender.push(1);
    sender.push(2);
    sender.push(3);
    await advance(100);
    expect(requests.map((request) => request.value)).toEqual([1]);
    requests[0].answer('one');
    await settle();
    expect(requests.map((request) => request.value)).toEqual([1, 3]);
    expect(settled).toEqual([]);
    requests[1].answer('three');
    await settle();
    expect(settled).toEqual([{ outcome: { ok: true, result: 'three' }, value: 3 }]);
    expect(sender.busy).toBe(false);
  });

  it('waits out the interval after a fast answer, then sends the last value', async () => {
    const { sender, requests, settled, advance, settle } = harness(50);
    sender.push(1);
    requests[0].answer('one');
    await settle();
    expect(settled).toHaveLength(1);
    sender.push(2);
    await advance(10);
    sender.push(3);
    expect(requests).toHaveLength(1);
    await advance(40);
    expect(requests.map((request) => request.value)).toEqual([1, 3]);
  });

  it('sends at most one request per interval during a long drag and always ends on the final value', async () => {
    const { sender, requests, advance, settle } = harness(50);
    for (let value = 1; value <= 100; value++) {
      sender.push(value);
      await advance(5);
      for (const request of requests) request.answer(`answer ${request.value}`);
      await settle();
    }
    await advance(100);
    await settle();
    for (const request of requests) request.answer(`answer ${request.value}`);
    await settle();
    expect(requests.length).toBeGreaterThanOrEqual(8);
    expect(requests.length).toBeLessThanOrEqual(11);
    expect(requests.at(-1)?.value).toBe(100);
    expect(sender.sent).toBe(requests.length);
  });

  it('reports a failed final request as an error outcome', async () => {
    const { sender, requests, settled, settle } = harness();
    sender.push(7);
    requests[0].fail(new Error('The stage tab was closed.'));
    await settle();
    expect(settled).toEqual([{ outcome: { ok: false, error: 'The stage tab was closed.' }, value: 7 }]);
  });

  it('drops a waiting value when cancelled', async () => {
    const { sender, requests, advance, settle } = harness();
    sender.push(1);
    requests[0].answer('one');
    await settle();
    sender.push(2);
    sender.cancel();
    await advance(100);
    expect(requests).toHaveLength(1);
    expect(sender.busy).toBe(false);
  });
});
