import { describe, expect, it } from 'vitest';
import type { RuntimeResponse } from '../protocol/runtime-message';
import { serveCallPort } from './serve-call-port';

function link(options: { postThrows?: boolean } = {}) {
  const posted: unknown[] = [];
  let listener: ((message: unknown) => void) | undefined;
  return {
    posted,
    send: (message: unknown) => listener?.(message),
    link: {
      postMessage: (message: unknown) => {
        if (options.postThrows) throw new Error('Attempting to use a disconnected port object');
        posted.push(message);
      },
      onMessage: (next: (message: unknown) => void) => (listener = next),
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('serveCallPort', () => {
  it('answers each request with its callId, and ignores what is not a request', async () => {
    const port = link();
    const answered: unknown[] = [];
    serveCallPort(port.link, async (request): Promise<RuntimeResponse> => {
      answered.push(request);
      return { ok: true, result: { echoed: request } };
    });
    port.send({ type: 'call/request', callId: 'a', request: { type: 'sessions/list' } });
    port.send({ type: 'call/request', request: { type: 'sessions/list' } });
    port.send({ type: 'events/subscribe', sessionId: 's', generation: 0 });
    port.send(null);
    await settle();
    expect(answered).toEqual([{ type: 'sessions/list' }]);
    expect(port.posted).toEqual([
      { type: 'call/response', callId: 'a', response: { ok: true, result: { echoed: { type: 'sessions/list' } } } },
    ]);
  });

  it('turns a failed answer into an error response, and survives a page that went away', async () => {
    const port = link();
    serveCallPort(port.link, () => Promise.reject(new Error('broken')));
    port.send({ type: 'call/request', callId: 'b', request: {} });
    await settle();
    expect(port.posted).toEqual([{ type: 'call/response', callId: 'b', response: { ok: false, error: 'broken' } }]);
    const gone = link({ postThrows: true });
    serveCallPort(gone.link, async () => ({ ok: true, result: null }));
    gone.send({ type: 'call/request', callId: 'c', request: {} });
    await settle();
    expect(gone.posted).toEqual([]);
  });
});
