import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

interface ChatRequestBody {
  messages: { role: string; content?: unknown; tool_call_id?: string }[];
}

function toolMessages(body: unknown): { tool_call_id?: string; content?: unknown }[] {
  return (body as ChatRequestBody).messages.filter((message) => message.role === 'tool');
}

describe('the split-brain loop in Chromium', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
    await configureEndpoint(session, server.url);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  beforeEach(() => server.clearRequests());

  it('reads parameters, sets speed and vectors inside the target, and sends both results back to the model', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'getParameters', arguments: {} }] },
            {
              toolCalls: [
                {
                  name: 'setParameters',
                  arguments: {
                    changes: [
                      { param: 'speed', value: 12 },
                      { param: 'show_vectors', value: true },
                    ],
                  },
                },
              ],
            },
            { text: 'Speed is now 12 m/s and velocity vectors are on.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    const started = Date.now();
    await sendMessage(panel, 'Make the particles faster, 12 m/s, and show their vectors.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    console.log(`[e2e] three-step turn with two tool calls took ${Date.now() - started} ms`);

    const frame = await session.targetFrame('particles');
    const inside = await frame.evaluate(() => {
      const bridge = (
        window as unknown as {
          SplitbrainBridge: { debug: { applyCount: number }; currentState(): Record<string, unknown> };
        }
      ).SplitbrainBridge;
      return { state: bridge.currentState(), applyCount: bridge.debug.applyCount };
    });
    expect(inside.state.speed).toBe(12);
    expect(inside.state.show_vectors).toBe(true);
    expect(inside.applyCount).toBe(1);

    expect(server.requests).toHaveLength(3);
    const lastBody = server.requests[2].body;
    const results = toolMessages(lastBody);
    expect(results).toHaveLength(2);
    expect(String(results[0].content)).toContain('"speed"');
    const setResult = JSON.parse(String(results[1].content)) as { ok: boolean; applied: Record<string, unknown> };
    expect(setResult).toMatchObject({ ok: true, applied: { speed: 12, show_vectors: true } });

    const text = await panel.$$eval('.assistant-message', (items) => items.map((item) => item.textContent).join('\n'));
    expect(text).toContain('Speed is now 12 m/s and velocity vectors are on.');
    const cards = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => `${item.getAttribute('aria-label')}:${item.getAttribute('data-status')}`),
    );
    expect(cards).toEqual(['Tool call getParameters:done', 'Tool call setParameters:done']);
    await panel.close();
  });

  it('answers an unknown parameter with an error naming the valid ones, and the conversation continues', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'setParameter', arguments: { param: 'spd', value: 20 } }] },
            { toolCalls: [{ name: 'setParameter', arguments: { param: 'speed', value: 20 } }] },
            { text: 'Speed set to 20 m/s.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Set the speed to 20.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const secondRequest = server.requests[1].body;
    const error = JSON.parse(String(toolMessages(secondRequest)[0].content)) as { ok: boolean; error: string };
    expect(error.ok).toBe(false);
    expect(error.error).toContain('Parameter "spd" not found');
    expect(error.error).toContain('speed');
    expect(error.error).toContain('show_vectors');
    const frame = await session.targetFrame('particles');
    expect(
      await frame.evaluate(
        () =>
          (
            window as unknown as { SplitbrainBridge: { currentState(): { speed: number } } }
          ).SplitbrainBridge.currentState().speed,
      ),
    ).toBe(20);
    const statuses = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => item.getAttribute('data-status')),
    );
    expect(statuses).toEqual(['failed', 'done']);
    await panel.close();
  });

  it('applies a parameter sent before a slow target was ready', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'slow-counter' } }] },
            { toolCalls: [{ name: 'setParameter', arguments: { param: 'count', value: 42 } }] },
            { text: 'Count is 42.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Open the slow counter and set it to 42.');
    const frame = await session.targetFrame('slow-counter');
    const readyAtApply = await frame.evaluate(
      () =>
        (window as unknown as { SplitbrainBridge: { debug: { applyCount: number } } }).SplitbrainBridge.debug
          .applyCount,
    );
    expect(readyAtApply).toBe(0);
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const inside = await frame.evaluate(() =>
      (window as unknown as { slowCounterState(): { count: number } }).slowCounterState(),
    );
    expect(inside.count).toBe(42);
    const result = JSON.parse(String(toolMessages(server.requests[2].body)[1].content)) as {
      ok: boolean;
      applied: { count: number };
    };
    expect(result).toMatchObject({ ok: true, applied: { count: 42 } });
    await panel.close();
  });
});
