import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ageToolResults, agingPolicyFor } from '../context/age-tool-results';
import { withCacheBreakpoints } from '../context/cache-breakpoints';
import { contextWindowOf, promptLimitOf } from '../context/context-window';
import { COMPACTION_SYSTEM_PROMPT } from '../context/summarise-history';
import {
  AGENT_EVENT_SCHEMA_VERSION,
  isDurableType,
  type AgentEvent,
  type AgentEventDraft,
} from '../protocol/agent-event';
import { readStoredEvent } from '../protocol/event-migrations';
import { sessionSnapshotSchema } from '../protocol/session-snapshot';
import type { EndpointSettings } from '../settings/endpoint-settings';
import type { ClientState } from '../state/client-state';
import { replayLog } from '../state/reduce-events';
import { stateAfter, takeSnapshot } from '../state/state-snapshot';
import { modelHistory } from './model-history';
import type { RuntimeClient } from './runtime-client';
import { startTurn } from './turn-driver';

const settings: EndpointSettings = {
  kind: 'openai-compatible',
  label: 'test',
  baseUrl: 'http://127.0.0.1:1/v1',
  model: 'replay-model',
  apiKey: '',
  scripted: false,
  // About 2,500 tokens of room after the system prompt and tools: a few pages, then a compaction.
  contextWindowTokens: 9_000,
  outputReserveTokens: 800,
};

function finish(reason: 'stop' | 'tool-calls'): LanguageModelV3StreamPart {
  return {
    type: 'finish',
    usage: {
      // No input count: the estimate goes uncalibrated, as with a provider that reports none.
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
    finishReason: { unified: reason, raw: reason },
  };
}

/** A model that acts on the page `actions` times per turn, then answers; summary requests get a summary. */
function pageModel(actionsPerTurn: number[]) {
  let turn = 0;
  let acted = 0;
  return new MockLanguageModelV3({
    doStream: async (options) => {
      const summary = options.prompt.some(
        (message) => message.role === 'system' && message.content === COMPACTION_SYSTEM_PROMPT,
      );
      const start: LanguageModelV3StreamPart = { type: 'stream-start', warnings: [] };
      if (summary)
        return {
          stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
            start,
            { type: 'text-start', id: 's' },
            { type: 'text-delta', id: 's', delta: 'SUMMARY of the pages visited.' },
            { type: 'text-end', id: 's' },
            finish('stop'),
          ]),
        };
      if (acted < (actionsPerTurn[turn] ?? 0)) {
        acted += 1;
        return {
          stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
            start,
            {
              type: 'tool-call',
              toolCallId: `call-${turn}-${acted}`,
              toolName: 'observePage',
              input: JSON.stringify({ find: `item ${turn}-${acted}` }),
            },
            finish('tool-calls'),
          ]),
        };
      }
      [turn, acted] = [turn + 1, 0];
      return {
        stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
          start,
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: `Done with turn ${turn}.` },
          { type: 'text-end', id: 't' },
          finish('stop'),
        ]),
      };
    },
  });
}

function loggingClient(events: AgentEvent[], pageSizes: () => number): RuntimeClient {
  let observations = 0;
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
      observations += 1;
      const line = `- button "Item ${observations}" [ref=e${observations}]\n`;
      const output = {
        ok: true,
        observation: {
          observationId: `obs-${observations}`,
          tabId: 1 + (observations % 2),
          url: `http://page.test/${observations}`,
          snapshot: line.repeat(pageSizes()),
        },
      };
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

/** The bytes the next request's history would be: the history, aged and marked as a step sends it. */
function requestBytes(state: ClientState): string {
  const policy = agingPolicyFor(promptLimitOf(contextWindowOf(settings)));
  return JSON.stringify(withCacheBreakpoints(ageToolResults(modelHistory(state), policy)));
}

const durable = (events: AgentEvent[]) => events.filter((event) => event.durable);

describe('the request is a pure function of the log', { timeout: 240_000 }, () => {
  it('after a restart (a full replay), from a stored snapshot at any point, and after migrating every row', async () => {
    let runs = 0;
    let compactions = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 2, maxLength: 5 }),
        fc.array(fc.integer({ min: 5, max: 120 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 3 }),
        fc.nat(),
        async (actionsPerTurn, sizes, storedVersion, cut) => {
          runs += 1;
          const events: AgentEvent[] = [];
          let next = 0;
          const client = loggingClient(events, () => sizes[next++ % sizes.length]);
          const model = pageModel(actionsPerTurn);
          let ids = 0;
          for (let turn = 0; turn < actionsPerTurn.length; turn++) {
            const handle = startTurn({
              client,
              settings,
              state: replayLog('s', durable(events)),
              text: `Turn ${turn}: look at the pages.`,
              model,
              newId: () => `id-${++ids}`,
            });
            expect(await handle.done).toBe('stop');
          }
          const log = durable(events);
          compactions += log.filter((event) => event.type === 'context/compacted').length;
          const replayed = requestBytes(replayLog('s', log));

          const position = cut % (log.length + 1);
          const stored = JSON.parse(JSON.stringify(takeSnapshot(replayLog('s', log.slice(0, position)))));
          const snapshot = sessionSnapshotSchema.parse(stored);
          expect(requestBytes(stateAfter('s', snapshot, log.slice(position)))).toBe(replayed);

          const migrated = log.map((event) => {
            const reading = readStoredEvent(JSON.parse(JSON.stringify({ ...event, schemaVersion: storedVersion })));
            if (!reading.ok) throw new Error(reading.reason);
            return reading.event;
          });
          expect(requestBytes(replayLog('s', migrated))).toBe(replayed);
        },
      ),
      { numRuns: 15, seed: 27 },
    );
    console.log(`[request replay] ${runs} runs, ${compactions} compactions, all byte-identical`);
    expect(compactions, 'some runs compact').toBeGreaterThan(0);
  });
});
