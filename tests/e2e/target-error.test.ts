import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { readInsideTarget, type ToolOutput } from './manual-tool';

interface ChatRequestBody {
  messages: { role: string; content?: unknown }[];
}

function toolResults(body: unknown): (ToolOutput & { targetErrors?: string[] })[] {
  return (body as ChatRequestBody).messages
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.parse(String(message.content)) as ToolOutput);
}

const THROWN = 'The faulty target refuses fault=throw-in-apply';
const CRASHED = 'The faulty target crashed while drawing level 40';

describe('an exception inside a target reaches the model and the panel (tests/targets/faulty)', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer({
      script: {
        turns: [
          {
            steps: [
              { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'faulty' } }] },
              { toolCalls: [{ name: 'setParameter', arguments: { param: 'fault', value: 'throw-in-apply' } }] },
              {
                toolCalls: [
                  {
                    name: 'setParameters',
                    arguments: {
                      changes: [
                        { param: 'level', value: 40 },
                        { param: 'fault', value: 'crash-after-apply' },
                      ],
                    },
                  },
                ],
              },
              { toolCalls: [{ name: 'getParameters', arguments: {} }] },
              { toolCalls: [{ name: 'setParameter', arguments: { param: 'fault', value: 'none' } }] },
              { text: 'The target failed twice; I told you what it said.' },
            ],
          },
        ],
      },
    });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('a throw in apply fails the call with its message; a crash after apply rides on the next result; the cards show both', async () => {
    const panel = await session.openPanel();
    await sendMessage(panel, 'Break the faulty target.');
    expect(await waitForTurnEnd(panel, 0, 60_000)).toBe('completed');

    const [opened, thrown, applied, read, calm] = toolResults(server.requests.at(-1)!.body);
    expect(opened).toMatchObject({ ok: true, targetId: 'faulty' });
    expect(thrown.ok).toBe(false);
    expect(thrown.error).toContain(`The target reported an error: ${THROWN}`);
    expect(applied).toMatchObject({ ok: true, applied: { level: 40, fault: 'crash-after-apply' } });
    expect(read).toMatchObject({ ok: true, targetId: 'faulty', targetErrors: [CRASHED] });
    // Each error is handed out once: the next result carries none.
    expect(calm).toMatchObject({ ok: true, applied: { fault: 'none' } });
    expect(calm.targetErrors).toBeUndefined();

    const frame = await session.targetFrame('faulty');
    const inside = await readInsideTarget(frame);
    expect(inside.state).toEqual({ level: 40, fault: 'none' });
    // The stage handed the target a MessagePort after ready, and the commands came over it.
    expect(
      await frame.evaluate(
        () => (window as unknown as { SplitbrainBridge: { debug: { port: boolean } } }).SplitbrainBridge.debug.port,
      ),
    ).toBe(true);

    const cards = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => ({
        card: `${item.getAttribute('aria-label')}:${item.getAttribute('data-status')}`,
        summary: item.querySelector('.tool-summary-error')?.textContent ?? '',
      })),
    );
    expect(cards.map((card) => card.card)).toEqual([
      'Tool call openTarget:done',
      'Tool call setParameter:failed',
      'Tool call setParameters:done',
      'Tool call getParameters:done',
      'Tool call setParameter:done',
    ]);
    expect(cards[1].summary).toContain(THROWN);
    expect(cards[3].summary).toBe(`The target reported: ${CRASHED}`);
    expect(cards[4].summary).toBe('');
    await panel.close();
  });
});
