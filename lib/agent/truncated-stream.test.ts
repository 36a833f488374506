import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { truncatedPartialText, truncatedStreamScript } from '../../tests/model-server/fixtures/truncated-stream-script';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { createLanguageModel } from '../providers/create-language-model';
import { recordingFetch, replayFetch, type RecordedResponse } from '../../tests/support/replay-fetch';
import {
  endpointFormats,
  scriptedEndpointSettings,
  type EndpointFormat,
} from '../../tests/support/scripted-endpoint-settings';
import type { Script } from '../../scripts/scripted-model-server/script';
import { runTestTurn } from '../../tests/support/run-test-turn';

let server: ScriptedModelServer;
beforeAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

async function runTurn(format: EndpointFormat, fetchFunction: typeof fetch) {
  const executed: string[] = [];
  const { outcome, drafts } = await runTestTurn({
    model: createLanguageModel(scriptedEndpointSettings(format, server.origin), { fetch: fetchFunction }),
    executeTool: async (call) => {
      executed.push(call.toolName);
      return { ok: true };
    },
    maxSteps: 1,
  });
  return { outcome, drafts, executed };
}

/** The first reply of a script as the server sent it, then closed cleanly after `keep` of its bytes: no reset, no closing frames. */
async function cleanlyCut(format: EndpointFormat, script: Script, keep: number): Promise<RecordedResponse[]> {
  server.setScript(script);
  const recorded: RecordedResponse[] = [];
  await runTurn(format, recordingFetch(recorded));
  const first = recorded[0];
  return [{ ...first, failure: undefined, body: first.body.slice(0, Math.floor(first.body.length * keep)) }];
}

describe.each(endpointFormats)('%s: a body that closes cleanly before its closing frames', (format) => {
  it('ends as a stream/error with the partial text kept as interrupted', async () => {
    const { outcome, drafts } = await runTurn(
      format,
      replayFetch(await cleanlyCut(format, truncatedStreamScript, 1), (bytes) => [bytes]),
    );
    expect(outcome).toBe('interrupted');
    expect(drafts.find((draft) => draft.type === 'assistant/interrupted')).toMatchObject({
      data: { text: truncatedPartialText },
    });
    expect(drafts.find((draft) => draft.type === 'stream/error')).toMatchObject({
      data: { code: 'truncated', message: 'The model stream ended without finishing.' },
    });
  });

  it('never runs a tool call whose arguments were cut off', async () => {
    const script: Script = {
      turns: [{ steps: [{ toolCalls: [{ name: 'setParameter', arguments: { param: 'speed', value: 3 } }] }] }],
    };
    const { outcome, executed } = await runTurn(
      format,
      replayFetch(await cleanlyCut(format, script, 0.6), (bytes) => [bytes]),
    );
    expect(outcome).toBe('interrupted');
    expect(executed).toEqual([]);
  });
});
