import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  malformedFramePartialText,
  malformedFrameScript,
} from '../../tests/model-server/fixtures/malformed-frame-script';
import { networkBreakPartialText, networkBreakScript } from '../../tests/model-server/fixtures/network-break-script';
import {
  serverErrorInStreamScript,
  serverErrorPartialText,
} from '../../tests/model-server/fixtures/server-error-in-stream-script';
import type { Script } from '../../scripts/scripted-model-server/script';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { runTestTurn } from '../../tests/support/run-test-turn';
import { createLanguageModel } from './create-language-model';
import {
  endpointFormats,
  scriptedEndpointSettings,
  type EndpointFormat,
} from '../../tests/support/scripted-endpoint-settings';

let server: ScriptedModelServer;
beforeAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  // Whole writes: how the bytes are cut is the chunking tests' concern, not this one's.
  server = await startScriptedModelServer({ minPieceBytes: 1 << 20, maxPieceBytes: 1 << 20 });
});
afterAll(() => server.close());

async function runTurn(format: EndpointFormat, script: Script) {
  server.setScript(script);
  server.clearRequests();
  return runTestTurn({
    model: createLanguageModel(scriptedEndpointSettings(format, server.origin)),
    messages: [{ role: 'user', content: 'Make the particles faster.' }],
    wait: async () => undefined,
  });
}

const breaks = [
  { name: 'a connection reset', script: networkBreakScript, partialText: networkBreakPartialText, code: 'network' },
  {
    name: 'a frame that is not JSON',
    script: malformedFrameScript,
    partialText: malformedFramePartialText,
    code: 'malformed',
  },
  {
    name: "the provider's own error event",
    script: serverErrorInStreamScript,
    partialText: serverErrorPartialText,
    code: 'provider',
  },
] as const;

describe.each(endpointFormats)('%s: a stream that breaks mid-way', (format) => {
  it.each(breaks)(
    'ends $name as one stream/error, the attempt interrupted with its partial text, and no retry glued on',
    async ({ script, partialText, code }) => {
      const { outcome, drafts } = await runTurn(format, script);
      expect(outcome).toBe('interrupted');
      expect(server.requests).toHaveLength(1);
      const attempts = drafts.filter((draft) => draft.type === 'step/started');
      expect(attempts).toHaveLength(1);
      const attemptId = 'attemptId' in attempts[0] ? attempts[0].attemptId : undefined;
      const text = drafts.flatMap((draft) => (draft.type === 'assistant/delta' ? [draft.data.text] : [])).join('');
      expect(text).toBe(partialText);
      expect(drafts.filter((draft) => draft.type === 'assistant/interrupted')).toMatchObject([
        { attemptId, data: { text: partialText } },
      ]);
      expect(drafts.filter((draft) => draft.type === 'assistant/completed' || draft.type === 'step/completed')).toEqual(
        [],
      );
      expect(drafts.filter((draft) => draft.type === 'stream/error')).toMatchObject([
        { attemptId, data: { code, retryable: true } },
      ]);
      expect(drafts.at(-1)).toMatchObject({ type: 'turn/interrupted' });
    },
  );
});
