import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryInfoScript } from '../../tests/model-server/fixtures/retry-info-script';
import { afterRateLimitText } from '../../tests/model-server/fixtures/retry-after-seconds-script';
import { quotaExhaustedScript } from '../../tests/model-server/fixtures/quota-exhausted-script';
import type { Script } from '../../scripts/scripted-model-server/script';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { AgentEventDraft } from '../protocol/agent-event';
import { createLanguageModel } from '../providers/create-language-model';
import { scriptedEndpointSettings, type EndpointFormat } from '../../tests/support/scripted-endpoint-settings';
import { runAgentTurn } from './agent-loop';

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

interface RunOptions {
  format?: EndpointFormat;
  apiKey?: string;
  /** Called instead of sleeping; may abort the turn. */
  onWait?(delayMs: number, abort: () => void): void;
}

async function run(script: Script, options: RunOptions = {}) {
  server.setScript(script);
  server.clearRequests();
  const drafts: AgentEventDraft[] = [];
  const waits: number[] = [];
  const controller = new AbortController();
  let counter = 0;
  const outcome = await runAgentTurn({
    model: createLanguageModel(scriptedEndpointSettings(options.format ?? 'gemini', server.origin, options.apiKey)),
    sessionId: 's',
    turnId: 't',
    messages: [{ role: 'user', content: 'go' }],
    emit: (batch) => drafts.push(...batch),
    flush: async () => undefined,
    executeTool: async () => ({ ok: true }),
    signal: controller.signal,
    newId: () => `id-${++counter}`,
    now: () => 1_000_000 + counter,
    wait: async (delayMs) => {
      waits.push(delayMs);
      options.onWait?.(delayMs, () => controller.abort());
    },
    secrets: options.apiKey ? [options.apiKey] : [],
  });
  return { outcome, drafts, waits, requests: server.requests.length };
}

describe('retrying a step the endpoint refused for now', () => {
  it("waits the 2 s of Gemini's RetryInfo, announces it, then runs the step again as a new attempt", async () => {
    const { outcome, drafts, waits, requests } = await run(retryInfoScript);
    expect(outcome).toBe('stop');
    expect(waits).toEqual([2000]);
    expect(requests).toBe(2);
    const retrying = drafts.find((draft) => draft.type === 'stream/retrying');
    expect(retrying).toMatchObject({ type: 'stream/retrying', data: { delayMs: 2000 } });
    if (retrying?.type !== 'stream/retrying') throw new Error('no stream/retrying');
    expect(retrying.data.until - retrying.time).toBe(2000);
    expect(retrying.data.reason).toContain('HTTP 429');
    const starts = drafts.filter((draft) => draft.type === 'step/started');
    expect(starts).toHaveLength(2);
    if (starts[0].type !== 'step/started' || starts[1].type !== 'step/started') throw new Error('unexpected');
    expect(starts[1].stepId).toBe(starts[0].stepId);
    expect(starts[1].attemptId).not.toBe(starts[0].attemptId);
    expect(retrying.attemptId).toBe(starts[0].attemptId);
    expect(
      drafts
        .filter((draft) => draft.type === 'assistant/completed')
        .map((draft) => draft.type === 'assistant/completed' && draft.data.text),
    ).toEqual([afterRateLimitText]);
    expect(drafts.some((draft) => draft.type === 'stream/error')).toBe(false);
  });

  it('honours Retry-After for the other formats', async () => {
    for (const format of ['openai-chat', 'anthropic', 'ai-sdk-chat'] as const) {
      const { outcome, waits } = await run(retryInfoScript, { format });
      expect(outcome, format).toBe('stop');
      expect(waits, format).toEqual([2000]);
    }
  });

  it('does not retry an exhausted quota and says so', async () => {
    const { outcome, drafts, waits, requests } = await run(quotaExhaustedScript);
    expect(outcome).toBe('interrupted');
    expect(waits).toEqual([]);
    expect(requests).toBe(1);
    const error = drafts.find((draft) => draft.type === 'stream/error');
    expect(error).toMatchObject({ data: { code: 'quota', retryable: false } });
    expect(error?.type === 'stream/error' && error.data.message).toMatch(
      /^Quota exhausted \(HTTP 429: You exceeded your current quota.*Not retried/,
    );
  });

  it('ends the turn as aborted when Stop comes during the wait, without another request', async () => {
    const { outcome, drafts, requests } = await run(retryInfoScript, { onWait: (_delay, abort) => abort() });
    expect(outcome).toBe('aborted');
    expect(requests).toBe(1);
    expect(drafts.at(-1)).toMatchObject({ type: 'turn/aborted', data: { reason: 'Stopped by the user.' } });
    expect(drafts.some((draft) => draft.type === 'stream/error')).toBe(false);
  });

  it('gives up after three retries of a 503 without a hint, backing off 2, 4, 8 s', async () => {
    const { outcome, waits, requests, drafts } = await run({
      turns: [{ steps: [{ error: { status: 503, message: 'The model is overloaded.' } }] }],
    });
    expect(outcome).toBe('interrupted');
    expect(waits).toEqual([2000, 4000, 8000]);
    expect(requests).toBe(4);
    expect(drafts.find((draft) => draft.type === 'stream/error')).toMatchObject({
      data: { code: 'rate-limit', message: 'HTTP 503: The model is overloaded. Gave up after 3 retries.' },
    });
  });

  it('keeps the API key out of every event, even when the provider echoes it', async () => {
    const apiKey = 'sk-secret-key-123456';
    const { drafts } = await run(
      { turns: [{ steps: [{ error: { status: 401, message: `Incorrect API key provided: ${apiKey}.` } }] }] },
      { format: 'openai-chat', apiKey },
    );
    const text = JSON.stringify(drafts);
    expect(text).not.toContain(apiKey);
    expect(drafts.find((draft) => draft.type === 'stream/error')).toMatchObject({
      data: { code: 'http', message: 'HTTP 401: Incorrect API key provided: [redacted].', retryable: false },
    });
  });
});
