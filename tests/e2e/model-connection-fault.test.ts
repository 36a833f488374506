import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { mulberry32 } from '../../scripts/scripted-model-server/mulberry32';
import { encodeOpenAIChatStream } from '../../scripts/scripted-model-server/openai-chat-encoder';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { stepToEvents } from '../../scripts/scripted-model-server/step-to-events';
import {
  configureEndpoint,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

const REPLY = Array.from({ length: 30 }, (_, index) => `part${index}`).join(' ');
const IDLE_TIMEOUT_SECONDS = 2;
/** A turn must reach a final state this long after the message is sent: the idle timeout plus 4 s of slack on a loaded 2-core machine. */
const FINAL_STATE_BOUND_MS = IDLE_TIMEOUT_SECONDS * 1000 + 4_000;
const OFFSETS_PER_MODE = 5;
const SEED = 8;

/** The length of the reply on the wire (OpenAI chat completions with a usage chunk); ids vary a few bytes per reply. */
function replyBytes(): number {
  const events = stepToEvents({ text: REPLY }, { turnIndex: 0, stepIndex: 0 });
  const frames = encodeOpenAIChatStream(events, {
    completionId: 'chatcmpl-scripted-1',
    created: 1_700_000_000,
    model: 'scripted-model',
    usage: { promptTokens: 10, completionTokens: 10 },
    includeUsageChunk: true,
  });
  return frames.reduce((total, frame) => total + Buffer.byteLength(frame), 0);
}

interface TurnView {
  status: string;
  text: string;
  itemStatus: string;
  error: string;
}

async function turnView(panel: Page, index: number): Promise<TurnView> {
  return panel.$$eval(
    'article.turn',
    (turns, turnIndex) => {
      const turn = turns[turnIndex];
      const item = turn.querySelector('.assistant-message');
      return {
        status: turn.getAttribute('data-status') ?? '',
        text: item?.firstChild?.textContent ?? '',
        itemStatus: item?.getAttribute('data-item-status') ?? '',
        // What the card says happened; the actions it offers (Retry step while it is the last turn) are left out.
        error: [...turn.querySelectorAll('.turn-error strong, .turn-error p, .turn-error code')]
          .map((part) => part.textContent ?? '')
          .join(' '),
      };
    },
    index,
  );
}

describe('the model connection is cut or stalls at random byte offsets', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer({ script: { turns: [{ steps: [{ text: REPLY }] }] } });
    session = await launchExtension();
    await configureEndpoint(session, server.url, { streamIdleTimeoutSeconds: IDLE_TIMEOUT_SECONDS });
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('ends every turn within the bound with the partial text kept, and a retry is a new attempt', async () => {
    const total = replyBytes();
    const random = mulberry32(SEED);
    const cases = (['close', 'stall'] as const).flatMap((then) =>
      Array.from({ length: OFFSETS_PER_MODE }, () => ({ then, byte: Math.floor(total * (0.05 + 0.85 * random())) })),
    );
    const report: string[] = [];
    let failures = 0;
    let longestMs = 0;
    const panel = await session.openPanel();
    for (const { then, byte } of cases) {
      server.setScript({ turns: [{ steps: [{ cutAt: { text: REPLY, byte, then }, once: true }, { text: REPLY }] }] });
      await panel.click('button::-p-text(New chat)');
      await panel.waitForFunction(() => document.querySelectorAll('article.turn').length === 0, {
        polling: 100,
        timeout: 10_000,
      });
      const sent = Date.now();
      await sendMessage(panel, `Cut ${then} at ${byte}.`);
      const status = await waitForTurnEnd(panel, 0, FINAL_STATE_BOUND_MS + 10_000);
      const elapsedMs = Date.now() - sent;
      longestMs = Math.max(longestMs, elapsedMs);
      const cut = await turnView(panel, 0);
      const expectedError = then === 'stall' ? 'The model stopped sending.' : 'The connection to the model broke off.';
      const ok =
        status === 'interrupted' &&
        elapsedMs <= FINAL_STATE_BOUND_MS &&
        REPLY.startsWith(cut.text) &&
        cut.text.length < REPLY.length &&
        (cut.text === '' || cut.itemStatus === 'interrupted') &&
        cut.error.includes(expectedError);
      report.push(
        `${then} at byte ${byte}/${total}: ${status} after ${elapsedMs} ms, kept ${cut.text.length} chars${ok ? '' : ` FAILED ${JSON.stringify(cut)}`}`,
      );
      if (!ok) failures++;

      await panel.click('button::-p-text(Retry message)');
      expect(await waitForTurnEnd(panel, 1, 20_000)).toBe('completed');
      const [before, retried] = [await turnView(panel, 0), await turnView(panel, 1)];
      expect(before, `the cut attempt stays as it was (${then} at ${byte})`).toEqual(cut);
      expect(retried.text).toBe(REPLY);
      expect(retried.itemStatus).toBe('completed');
      const retryRequest = server.requests.at(-1)!.body as { messages: { role: string }[] };
      expect(retryRequest.messages.filter((message) => message.role === 'user')).toHaveLength(1);
      expect(retryRequest.messages.filter((message) => message.role === 'assistant')).toHaveLength(0);
    }
    console.log(
      `[model connection faults] idle timeout ${IDLE_TIMEOUT_SECONDS} s, bound ${FINAL_STATE_BOUND_MS} ms\n${report.join('\n')}\nruns: ${cases.length}, failures: ${failures}, longest time to a final state: ${longestMs} ms`,
    );
    expect(failures).toBe(0);
    await panel.close();
  });
});
