import { describe, expect, it } from 'vitest';
import type { McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import { AppAsks, type AppAsk } from './app-asks';

function asks(options: { throwing?: () => boolean } = {}) {
  const sent: AppAsk[] = [];
  let next = 0;
  const appAsks = new AppAsks({
    send: (message) => {
      if (options.throwing?.()) throw new Error('Attempting to use a disconnected port object');
      sent.push(message);
    },
    newId: () => `request-${++next}`,
  });
  return { appAsks, sent };
}

function settled(promise: Promise<McpAppToolAnswer>) {
  const seen: { answer?: McpAppToolAnswer } = {};
  void promise.then((answer) => (seen.answer = answer));
  return seen;
}

describe('AppAsks', () => {
  it('sends an app tool call and a request to the runtime as it asks them', () => {
    const { appAsks, sent } = asks();
    void appAsks.callTool('app-1', 'refresh', { page: 2 });
    void appAsks.request('app-1', { method: 'ui/open-link', url: 'https://example.com/' });
    expect(sent).toEqual([
      {
        type: 'stage/app-tool-call',
        targetId: 'app-1',
        requestId: 'request-1',
        call: { name: 'refresh', arguments: { page: 2 } },
      },
      {
        type: 'stage/app-request',
        targetId: 'app-1',
        requestId: 'request-2',
        request: { method: 'ui/open-link', url: 'https://example.com/' },
      },
    ]);
  });

  it("resolves a call with the runtime's answer, once", async () => {
    const { appAsks } = asks();
    const call = appAsks.callTool('app-1', 'refresh', {});
    appAsks.answer('request-1', { result: { content: [] } });
    appAsks.answer('request-1', { error: 'again' });
    expect(await call).toEqual({ result: { content: [] } });
  });

  it('answers every waiting call with an error when the app is closed', async () => {
    const { appAsks } = asks();
    const first = appAsks.callTool('app-1', 'a', {});
    const second = appAsks.callTool('app-1', 'b', {});
    appAsks.closeAll();
    expect(await first).toEqual({ error: 'The app was closed before its call was answered.' });
    expect(await second).toEqual({ error: 'The app was closed before its call was answered.' });
  });

  it('answers the calls sent before the port was lost with an error, as their runtime is gone', async () => {
    const { appAsks, sent } = asks();
    const call = appAsks.callTool('app-1', 'a', {});
    appAsks.portLost();
    expect(await call).toEqual({
      error: 'The extension restarted before answering; it may or may not have been done.',
    });
    appAsks.portReopened();
    expect(sent).toHaveLength(1);
  });

  it('keeps a call made while the port is away and sends it on the new port', async () => {
    const { appAsks, sent } = asks();
    appAsks.portLost();
    const call = settled(appAsks.callTool('app-1', 'a', {}));
    expect(sent).toEqual([]);
    appAsks.portReopened();
    expect(sent.map((message) => message.requestId)).toEqual(['request-1']);
    appAsks.answer('request-1', { error: 'denied' });
    await Promise.resolve();
    expect(call.answer).toEqual({ error: 'denied' });
  });

  it('keeps a call whose send threw (the loss not yet told) for the new port', () => {
    let throwing = true;
    const { appAsks, sent } = asks({ throwing: () => throwing });
    void appAsks.callTool('app-1', 'a', {});
    throwing = false;
    appAsks.portLost();
    appAsks.portReopened();
    expect(sent.map((message) => message.requestId)).toEqual(['request-1']);
  });

  it('does not send on the new port a call answered or closed in the meantime', () => {
    const { appAsks, sent } = asks();
    appAsks.portLost();
    void appAsks.callTool('app-1', 'a', {});
    appAsks.closeAll();
    appAsks.portReopened();
    expect(sent).toEqual([]);
  });
});
