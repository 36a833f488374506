import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('the idle timeout', () => {
  it('does not end a slow stream that keeps sending, though it lasts longer than the timeout', async () => {
    server.setScript({ turns: [{ steps: [{ text: TEXT, delayMs: 100 }] }] });
    const { outcome, drafts, elapsedMs } = await runTurn('openai-chat', { streamIdleTimeoutMs: 1_000 });
    expect(elapsedMs).toBeGreaterThan(1_000);
    expect(outcome).toBe('stop');
    expect(drafts.find((draft) => draft.type === 'assistant/completed')).toMatchObject({ data: { text: TEXT } });
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
