import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { createLanguageModel } from '../providers/create-language-model';
import { endpointFormats, scriptedEndpointSettings } from '../../tests/support/scripted-endpoint-settings';
import { runTestTurn } from '../../tests/support/run-test-turn';

let server: ScriptedModelServer;
beforeAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

const LONG_TEXT = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');

describe.each(endpointFormats)('%s: Stop while the reply streams', (format) => {
  it('ends the turn as aborted, keeps the partial text as interrupted, and reports no stream error', async () => {
    server.setScript({ turns: [{ steps: [{ text: LONG_TEXT, delayMs: 40 }] }] });
    const controller = new AbortController();
    const { outcome, drafts } = await runTestTurn({
      model: createLanguageModel(scriptedEndpointSettings(format, server.origin)),
      messages: [{ role: 'user', content: 'Count.' }],
      // Stop as the user would, once some text is on screen.
      emit: (batch) => {
        if (batch.some((draft) => draft.type === 'assistant/delta')) controller.abort();
      },
      signal: controller.signal,
    });
    expect(outcome).toBe('aborted');
    expect(drafts.at(-1)).toMatchObject({ type: 'turn/aborted' });
    expect(drafts.some((draft) => draft.type === 'stream/error')).toBe(false);
    const shown = drafts
      .filter((draft) => draft.type === 'assistant/delta')
      .map((draft) => (draft.type === 'assistant/delta' ? draft.data.text : ''))
      .join('');
    const interrupted = drafts.find((draft) => draft.type === 'assistant/interrupted');
    expect(shown).not.toBe('');
    expect(interrupted).toMatchObject({ data: { text: shown, reason: 'Stopped by the user.' } });
    expect(shown.length).toBeLessThan(LONG_TEXT.length);
  });
});
