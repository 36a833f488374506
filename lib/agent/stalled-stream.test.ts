import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { AgentEventDraft } from '../protocol/agent-event';
import { createLanguageModel } from '../providers/create-language-model';
import {
  endpointFormats,
  scriptedEndpointSettings,
  type EndpointFormat,
} from '../../tests/support/scripted-endpoint-settings';
import { runTestTurn } from '../../tests/support/run-test-turn';

const TEXT = 'The particles now drift slowly toward the left edge of the field.';
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

let server: ScriptedModelServer;
beforeAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

async function runTurn(format: EndpointFormat, options: { signal?: AbortSignal; streamIdleTimeoutMs?: number } = {}) {
  const started = performance.now();
  const { outcome, drafts } = await runTestTurn({
    model: createLanguageModel(scriptedEndpointSettings(format, server.origin)),
    ...(options.signal ? { signal: options.signal } : {}),
    maxSteps: 1,
    ...(options.streamIdleTimeoutMs === undefined ? {} : { streamIdleTimeoutMs: options.streamIdleTimeoutMs }),
  });
  return { outcome, drafts, elapsedMs: performance.now() - started };
}

function partialText(drafts: AgentEventDraft[]): string {
  const interrupted = drafts.find((draft) => draft.type === 'assistant/interrupted');
  return interrupted ? (interrupted.data as { text: string }).text : '';
}

describe.each(endpointFormats)('%s: a stream that goes silent', (format) => {
  it('is stopped after the idle timeout as stalled, with the partial text kept', async () => {
    server.setScript({ turns: [{ steps: [{ cutAt: { text: TEXT, byte: 400, then: 'stall' } }] }] });
    const { outcome, drafts, elapsedMs } = await runTurn(format, { streamIdleTimeoutMs: 400 });
    expect(outcome).toBe('interrupted');
    expect(drafts.find((draft) => draft.type === 'stream/error')).toMatchObject({
      data: { code: 'stalled', retryable: true, message: 'The model sent nothing for 0.4 s; the attempt was stopped.' },
    });
    expect(TEXT.startsWith(partialText(drafts))).toBe(true);
    expect(elapsedMs).toBeLessThan(5_000);
  });
});

/** A model that sends TEXT in pieces, `gapMs` apart on the (fake) clock. */
function slowModel(gapMs: number): MockLanguageModelV3 {
  const pieces = TEXT.match(/.{1,8}/g) ?? [];
  const chunks: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 'text' },
    ...pieces.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 'text', delta })),
    { type: 'text-end', id: 'text' },
    { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
  ];
  return new MockLanguageModelV3({
    doStream: async () => ({ stream: simulateReadableStream({ chunks, chunkDelayInMs: gapMs }) }),
  });
}

/** One turn on the fake clock, advanced a tick at a time until the turn ends; the virtual time it took. */
async function runOnFakeClock(model: MockLanguageModelV3, streamIdleTimeoutMs: number) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    const started = Date.now();
    let ended = false;
    const turn = runTestTurn({ model, maxSteps: 1, streamIdleTimeoutMs }).finally(() => (ended = true));
    while (!ended) await vi.advanceTimersByTimeAsync(10);
    return { ...(await turn), virtualMs: Date.now() - started };
  } finally {
    vi.useRealTimers();
  }
}

describe('the idle timeout', () => {
  it('does not end a slow stream that keeps sending, though it lasts longer than the timeout', async () => {
    const { outcome, drafts, virtualMs } = await runOnFakeClock(slowModel(100), 1_000);
    expect(virtualMs).toBeGreaterThan(1_000);
    expect(outcome).toBe('stop');
    expect(drafts.find((draft) => draft.type === 'assistant/completed')).toMatchObject({ data: { text: TEXT } });
  });

  it('ends the same stream as stalled when one gap is longer than the timeout (the fake clock drives the timer)', async () => {
    const { outcome, drafts } = await runOnFakeClock(slowModel(1_100), 1_000);
    expect(outcome).toBe('interrupted');
    expect(drafts.find((draft) => draft.type === 'stream/error')).toMatchObject({ data: { code: 'stalled' } });
  });

  it('leaves a stop during a stall an abort, not a stall', async () => {
    server.setScript({ turns: [{ steps: [{ cutAt: { text: TEXT, byte: 300, then: 'stall' } }] }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const { outcome, drafts } = await runTurn('openai-chat', { signal: controller.signal, streamIdleTimeoutMs: 2_000 });
    expect(outcome).toBe('aborted');
    expect(drafts.some((draft) => draft.type === 'stream/error')).toBe(false);
  });

  it('reports a connection closed at a byte offset as a failed attempt with the partial text kept', async () => {
    server.setScript({ turns: [{ steps: [{ cutAt: { text: TEXT, byte: 300, then: 'close' } }] }] });
    const { outcome, drafts } = await runTurn('openai-chat', { streamIdleTimeoutMs: 2_000 });
    expect(outcome).toBe('interrupted');
    expect(drafts.find((draft) => draft.type === 'stream/error')).toBeDefined();
    expect(TEXT.startsWith(partialText(drafts))).toBe(true);
  });
});
