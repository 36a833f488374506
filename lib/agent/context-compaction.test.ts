import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { COMPACTION_SYSTEM_PROMPT } from '../context/summarise-history';
import {
  AGENT_EVENT_SCHEMA_VERSION,
  isDurableType,
  type AgentEvent,
  type AgentEventDraft,
} from '../protocol/agent-event';
import { readStoredEvent } from '../protocol/event-migrations';
import type { EndpointSettings } from '../settings/endpoint-settings';
import { replayLog } from '../state/reduce-events';
import { modelHistory } from './model-history';
import type { RuntimeClient } from './runtime-client';
import { compactConversation } from './compact-conversation';
import { startTurn } from './turn-driver';

const settings: EndpointSettings = {
  kind: 'openai-compatible',
  label: 'test',
  baseUrl: 'http://127.0.0.1:1/v1',
  model: 'windowed-model',
  apiKey: '',
  scripted: false,
  // A small local model's window: our system prompt and tools take about 5,700 of it, as a provider counts them.
  contextWindowTokens: 8_192,
  outputReserveTokens: 256,
};
const LIMIT = 8_192 - 256;

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const words = (count: number, seed: number) =>
  Array.from({ length: count }, (_, index) => WORDS[(index * 7 + seed) % WORDS.length]).join(' ');

function finish(inputTokens: number, reason: 'stop' | 'tool-calls'): LanguageModelV3StreamPart {
  return {
    type: 'finish',
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
    finishReason: { unified: reason, raw: reason },
  };
}

function text(value: string, inputTokens: number): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 'text' },
    { type: 'text-delta', id: 'text', delta: value },
    { type: 'text-end', id: 'text' },
    finish(inputTokens, 'stop'),
  ];
}

/** A rough stand-in for the provider's count: the characters of the prompt and the tool definitions over four. */
function promptTokens(options: LanguageModelV3CallOptions): number {
  return Math.ceil(JSON.stringify({ prompt: options.prompt, tools: options.tools }).length / 4);
}

interface Recorded {
  prompt: LanguageModelV3CallOptions['prompt'];
  tokens: number;
  summary: boolean;
}

/** Answers a summary request with a fixed summary (or fails it), and every other request as `answer` says. */
function windowedModel(
  answer: (options: LanguageModelV3CallOptions, call: number) => LanguageModelV3StreamPart[],
  summaries: { fail?: boolean } = {},
) {
  const recorded: Recorded[] = [];
  const model = new MockLanguageModelV3({
    doStream: async (options: LanguageModelV3CallOptions) => {
      const summary = options.prompt.some(
        (message) => message.role === 'system' && message.content === COMPACTION_SYSTEM_PROMPT,
      );
      recorded.push({ prompt: options.prompt, tokens: promptTokens(options), summary });
      if (summary && summaries.fail) throw new Error('summary refused');
      const parts = summary
        ? text('SUMMARY: the user asked for words.', promptTokens(options))
        : answer(options, recorded.length);
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  return { model, recorded };
}

/** A runtime that stamps seq and keeps the log, as the real one does. */
function loggingClient(events: AgentEvent[]): RuntimeClient {
  const append = async (_sessionId: string, drafts: AgentEventDraft[]) => {
    for (const draft of drafts) {
      const durable = isDurableType(draft.type);
      const seq = (events.at(-1)?.seq ?? 0) + (durable ? 1 : 0);
      events.push({ ...draft, schemaVersion: AGENT_EVENT_SCHEMA_VERSION, seq, durable } as AgentEvent);
    }
  };
  return {
    appendEvents: append,
    executeTool: async (request) => {
      const output = { ok: true, page: words(300, 3) };
      const ids = { sessionId: request.sessionId, turnId: request.turnId, toolCallId: request.toolCallId, time: 1 };
      await append(request.sessionId, [
        {
          type: 'tool/requested',
          ...ids,
          stepId: request.stepId,
          data: { toolName: request.toolName, input: request.input },
        },
        { type: 'tool/started', ...ids, data: {} },
        { type: 'tool/completed', ...ids, data: { output, durationMs: 1 } },
      ]);
      return { status: 'completed', output, replayed: false };
    },
    takeSteers: async () => [],
    submitCommand: async () => undefined,
    ownTurn: () => undefined,
    releaseTurn: () => undefined,
  };
}

const durableLog = (events: AgentEvent[]) => events.filter((event) => event.durable);
let ids = 0;
const newId = () => `id-${++ids}`;

async function conversation(turns: number, model: MockLanguageModelV3, events: AgentEvent[]) {
  for (let index = 0; index < turns; index++) {
    const state = replayLog('s', durableLog(events));
    const handle = startTurn({
      client: loggingClient(events),
      settings,
      state,
      text: `Turn ${index}: ${words(40, index)}`,
      model,
      newId,
    });
    expect(await handle.done).toBe('stop');
  }
}

// The first turn loads the tokenizer's ranks (about 1 MB to parse), slow on a busy machine.
describe('compaction keeps a long conversation inside the window', { timeout: 60_000 }, () => {
  it('summarises earlier turns with the model before a request would pass the threshold, and never sends more than the limit', async () => {
    const events: AgentEvent[] = [];
    const { model, recorded } = windowedModel((options) => text(words(120, recorded.length), promptTokens(options)));
    await conversation(32, model, events);
    const compactions = events.filter((event) => event.type === 'context/compacted');
    expect(compactions.length).toBeGreaterThan(1);
    expect(compactions.every((event) => event.data.method === 'model' && event.data.trigger === 'threshold')).toBe(
      true,
    );
    expect(recorded.filter((request) => !request.summary).every((request) => request.tokens <= LIMIT)).toBe(true);
    const last = recorded.at(-1)!;
    expect(JSON.stringify(last.prompt)).toContain('SUMMARY: the user asked for words.');
    expect(JSON.stringify(last.prompt)).not.toContain('Turn 0:');
    // The calibration learnt from the steps' usage is in the log.
    expect(replayLog('s', durableLog(events)).calibration?.['windowed-model']?.steps).toBeGreaterThan(10);
  });

  it('falls back to the deterministic digest when the summary request fails, naming why', async () => {
    const events: AgentEvent[] = [];
    const { model } = windowedModel((options) => text(words(120, 1), promptTokens(options)), { fail: true });
    await conversation(20, model, events);
    const compaction = events.find((event) => event.type === 'context/compacted');
    expect(compaction?.type === 'context/compacted' && compaction.data.method).toBe('digest');
    expect(compaction?.type === 'context/compacted' && compaction.data.summary).toContain('User: Turn 0:');
    expect(compaction?.type === 'context/compacted' && compaction.data.fallbackReason).toMatch(/summary refused/);
  });

  it('cuts inside a long turn of tool calls, and the log rebuilds the history the loop sent, after a restart too', async () => {
    const events: AgentEvent[] = [];
    const steps = 10;
    const { model, recorded } = windowedModel((options, call) => {
      const normal = recorded.filter((request) => !request.summary).length;
      if (normal > steps) return text('Done.', promptTokens(options));
      return [
        { type: 'stream-start', warnings: [] },
        { type: 'tool-call', toolCallId: `call-${call}`, toolName: 'jobStatus', input: `{"jobId":"job-${call}"}` },
        finish(promptTokens(options), 'tool-calls'),
      ];
    });
    const handle = startTurn({
      client: loggingClient(events),
      settings,
      state: replayLog('s', []),
      text: 'Read the job ten times.',
      model,
      newId,
    });
    expect(await handle.done).toBe('stop');
    const compactions = events.filter((event) => event.type === 'context/compacted');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.every((event) => event.type === 'context/compacted' && event.data.throughStepId)).toBe(true);
    expect(recorded.filter((request) => !request.summary).every((request) => request.tokens <= LIMIT)).toBe(true);
    // Rows read back through the migration path (as after a worker restart) give the same history.
    const reread = durableLog(events).map((event) => {
      const reading = readStoredEvent(JSON.parse(JSON.stringify(event)));
      if (!reading.ok) throw new Error(reading.reason);
      return reading.event;
    });
    expect(modelHistory(replayLog('s', reread))).toEqual(modelHistory(replayLog('s', durableLog(events))));
    // What the loop sent last is what the log rebuilds (less the final answer): same messages, same calls, same summary.
    const lastOfTurn = recorded.filter((request) => !request.summary).at(-1)!;
    const shape = (messages: readonly { role: string; content: unknown }[]) =>
      messages.map((message) =>
        typeof message.content === 'string'
          ? `${message.role}: ${message.content}`
          : `${message.role}: ${(message.content as { type: string; text?: string; toolCallId?: string }[])
              .map((part) => part.text ?? part.toolCallId ?? part.type)
              .join(' ')}`,
      );
    const rebuilt = modelHistory(replayLog('s', reread));
    expect(shape(lastOfTurn.prompt.filter((message) => message.role !== 'system'))).toEqual(
      shape(rebuilt.slice(0, -1)),
    );
    expect(shape(rebuilt)[0]).toContain('<conversation-summary>');
  });

  it('a compaction recorded twice is one compaction', () => {
    const draft = {
      type: 'context/compacted',
      sessionId: 's',
      compactionId: 'c1',
      time: 1,
      durable: true,
      schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
      data: {
        throughTurnId: 't1',
        summary: 'S',
        summaryTokens: 1,
        coveredTokens: 10,
        method: 'digest',
        trigger: 'user',
      },
    } as const;
    const state = replayLog('s', [
      { ...draft, seq: 1 },
      { ...draft, seq: 2 },
    ] as AgentEvent[]);
    expect(state.compactions).toEqual([
      {
        compactionId: 'c1',
        seq: 1,
        time: 1,
        fromSeq: 1,
        toSeq: 0,
        throughTurnId: 't1',
        summary: 'S',
        summaryTokens: 1,
        coveredTokens: 10,
        method: 'digest',
        trigger: 'user',
      },
    ]);
  });

  it('compacts on demand between turns: every turn before the last is summarised, and the next request starts there', async () => {
    const events: AgentEvent[] = [];
    const { model, recorded } = windowedModel(() => text('Noted.', 10));
    const roomy = { ...settings, contextWindowTokens: 100_000 };
    for (let index = 0; index < 3; index++) {
      const handle = startTurn({
        client: loggingClient(events),
        settings: roomy,
        state: replayLog('s', durableLog(events)),
        text: `Short turn ${index}`,
        model,
        newId,
      });
      expect(await handle.done).toBe('stop');
    }
    expect(recorded.some((request) => request.summary)).toBe(false);
    const state = replayLog('s', durableLog(events));
    const outcome = await compactConversation({ client: loggingClient(events), settings: roomy, state, model, newId });
    expect(outcome.kind).toBe('compacted');
    const compaction = replayLog('s', durableLog(events)).compactions?.at(-1);
    expect(compaction).toMatchObject({ trigger: 'user', method: 'model', throughTurnId: state.turnOrder[1] });
    expect(recorded.filter((request) => request.summary)).toHaveLength(1);
    const handle = startTurn({
      client: loggingClient(events),
      settings: roomy,
      state: replayLog('s', durableLog(events)),
      text: 'After the compaction',
      model,
      newId,
    });
    expect(await handle.done).toBe('stop');
    const texts = JSON.stringify(recorded.at(-1)!.prompt);
    expect(texts).toContain('SUMMARY: the user asked for words.');
    expect(texts).not.toContain('Short turn 0');
    expect(texts).toContain('Short turn 2');
  });

  it('says there is nothing to compact in a conversation of one turn', async () => {
    const events: AgentEvent[] = [];
    const { model } = windowedModel(() => text('Noted.', 10));
    const handle = startTurn({
      client: loggingClient(events),
      settings,
      state: replayLog('s', []),
      text: 'Only turn',
      model,
      newId,
    });
    expect(await handle.done).toBe('stop');
    const outcome = await compactConversation({
      client: loggingClient(events),
      settings,
      state: replayLog('s', durableLog(events)),
      model,
      newId,
    });
    expect(outcome).toEqual({
      kind: 'nothing',
      reason: 'There is nothing to compact yet: the conversation has one turn.',
    });
  });
});
