import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { Script } from '../../scripts/scripted-model-server/script';
import {
  endpointFormats,
  scriptedEndpointSettings,
  type EndpointFormat,
} from '../../tests/support/scripted-endpoint-settings';
import { runTestTurn } from '../../tests/support/run-test-turn';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { TokenUsage } from '../protocol/token-usage';
import { createLanguageModel } from '../providers/create-language-model';

const firstStep = { inputTokens: 1200, outputTokens: 40, reasoningTokens: 10, cachedInputTokens: 1000 };
const secondStep = { inputTokens: 1300, outputTokens: 60, reasoningTokens: 5, cachedInputTokens: 1100 };

const script: Script = {
  turns: [
    {
      steps: [
        { toolCalls: [{ name: 'getParameters', arguments: {} }], usage: firstStep },
        { text: 'Done.', usage: secondStep },
      ],
    },
  ],
};

/** Anthropic counts thinking inside its output tokens and reports no separate figure. */
function withoutReasoning({ reasoningTokens: _reasoning, ...usage }: TokenUsage): TokenUsage {
  return usage;
}

const expected: Record<EndpointFormat, [TokenUsage, TokenUsage] | undefined> = {
  'openai-chat': [firstStep, secondStep],
  'openai-responses': [firstStep, secondStep],
  'openai-compatible': [firstStep, secondStep],
  anthropic: [withoutReasoning(firstStep), withoutReasoning(secondStep)],
  gemini: [firstStep, secondStep],
  // The UI message stream protocol has no usage field.
  'ai-sdk-chat': undefined,
};

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

function stepUsages(drafts: AgentEventDraft[]): (TokenUsage | undefined)[] {
  return drafts.flatMap((draft) => (draft.type === 'step/completed' ? [draft.data.usage] : []));
}

describe('step/completed records the usage each endpoint format reports', () => {
  it.each(endpointFormats)('%s: a tool call then text', async (format) => {
    server.setScript(script);
    const { outcome, drafts } = await runTestTurn({
      model: createLanguageModel(scriptedEndpointSettings(format, server.origin)),
    });
    expect(outcome).toBe('stop');
    const usages = stepUsages(drafts);
    expect(usages).toHaveLength(2);
    const want = expected[format];
    if (want) expect(usages).toEqual(want);
    else for (const usage of usages) expect(usage).toBeUndefined();
  });

  it('leaves usage out of the event when the provider reported none', async () => {
    server.setScript(script);
    const { drafts } = await runTestTurn({
      model: createLanguageModel(scriptedEndpointSettings('ai-sdk-chat', server.origin)),
    });
    const completed = drafts.filter((draft) => draft.type === 'step/completed');
    for (const draft of completed) expect(draft.data).not.toHaveProperty('usage');
  });
});
