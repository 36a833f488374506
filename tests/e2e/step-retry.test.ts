import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  sendMessage,
  storedRowsText,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { function: { name: string } }[];
}

interface StoredEvent {
  type: string;
  turnId?: string;
  attemptId?: string;
  toolCallId?: string;
  data: { retriesStep?: { turnId: string; attemptId: string }; toolName?: string; text?: string };
}

async function storedEvents(panel: Page): Promise<StoredEvent[]> {
  const rows = JSON.parse(await storedRowsText(panel, await currentSessionId(panel))) as { event: StoredEvent }[];
  return rows.map((row) => row.event);
}

/** How many times the faulty target's frame applied a change: the side effect a re-run call would repeat. */
async function appliesInTarget(session: ExtensionSession): Promise<number> {
  const frame = await session.targetFrame('faulty');
  return frame.evaluate(
    () =>
      (window as unknown as { SplitbrainBridge: { debug: { applyCount: number } } }).SplitbrainBridge.debug.applyCount,
  );
}

describe('Retry step: a failed model request runs again, in Chromium', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;
  const modelRequests = () => server.requests.filter((request) => request.method === 'POST');

  beforeAll(async () => {
    server = await startScriptedModelServer({
      script: {
        turns: [
          {
            steps: [
              {
                toolCalls: [
                  { name: 'openTarget', arguments: { targetId: 'faulty' } },
                  { name: 'setParameter', arguments: { param: 'level', value: 42 } },
                ],
              },
              // The turn's second request fails once (HTTP 500 is not retried by the loop); asked again, it answers.
              { error: { status: 500, message: 'The scripted server failed this request once.' }, once: true },
              { text: 'The level is 42 now.' },
            ],
          },
        ],
      },
    });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    panel = await session.openPanel();
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('asks the model again with the tool result it had, and the side-effecting call does not run again', async () => {
    await sendMessage(panel, 'Open the faulty target and set the level to 42.');
    expect(await waitForTurnEnd(panel, 0)).toBe('interrupted');
    // The stage tab opened in front of the panel; headless Chromium gives a tab behind no clicks (nor an AX tree).
    await panel.bringToFront();
    expect(modelRequests()).toHaveLength(2);
    await panel.waitForSelector('article.turn .turn-error .retry-step-button');
    // Retry message (the whole message again) stays a separate, differently labelled action.
    expect(await panel.$('::-p-aria([name="Retry message"][role="button"])')).not.toBeNull();
    expect(await appliesInTarget(session)).toBe(1);

    await panel.click('article.turn .turn-error .retry-step-button');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');

    expect(modelRequests()).toHaveLength(3);
    const [, failed, retried] = modelRequests().map(
      (request) => (request.body as { messages: ChatMessage[] }).messages,
    );
    // The same request as the one that failed: the message once, the step that completed and both its results.
    expect(retried).toEqual(failed);
    expect(retried!.filter((message) => message.role === 'user')).toHaveLength(1);
    const results = retried!.filter((message) => message.role === 'tool');
    expect(results).toHaveLength(2);
    expect(JSON.parse(String(results[1]!.content))).toMatchObject({ ok: true });

    // The tool ran once in all: one apply in the target, one request and one completion of setParameter in the log.
    expect(await appliesInTarget(session)).toBe(1);
    const events = await storedEvents(panel);
    const setParameter = events.filter(
      (event) => event.type === 'tool/requested' && event.data.toolName === 'setParameter',
    );
    expect(setParameter).toHaveLength(1);
    expect(
      events.filter((event) => event.type === 'tool/completed' && event.toolCallId === setParameter[0]!.toolCallId),
    ).toHaveLength(1);

    const [first, retry] = events.filter((event) => event.type === 'turn/started');
    const failedAttempt = events.find((event) => event.type === 'stream/error')!.attemptId;
    expect(retry!.data).toMatchObject({ text: '', retriesStep: { turnId: first!.turnId, attemptId: failedAttempt } });
    const retryAttempts = events.filter((event) => event.type === 'step/started' && event.turnId === retry!.turnId);
    expect(retryAttempts).toHaveLength(1);
    expect(retryAttempts[0]!.attemptId).not.toBe(failedAttempt);

    const answer = await panel.$$eval('.assistant-message', (items) => items.map((item) => item.textContent ?? ''));
    expect(answer.at(-1)).toContain('The level is 42 now.');
    expect(await panel.$('.retry-step-note')).not.toBeNull();
    expect(await panel.$('.retry-step-button')).toBeNull();
    console.log(
      `[e2e] step retry: attempt ${failedAttempt} failed, turn ${retry!.turnId} asked again; setParameter applied once`,
    );
  });
});
