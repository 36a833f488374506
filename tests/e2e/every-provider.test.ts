import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointFormats, scriptedEndpointSettings, type EndpointFormat } from '../support/scripted-endpoint-settings';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureProfile,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import { manualTool, readInsideTarget } from './manual-tool';

const ANSWER = 'Speed is now 12 m/s and velocity vectors are on.';

const foundationScript = {
  turns: [
    {
      steps: [
        { toolCalls: [{ name: 'getParameters', arguments: {} }] },
        {
          toolCalls: [
            {
              name: 'setParameters',
              arguments: {
                changes: [
                  { param: 'speed', value: 12 },
                  { param: 'show_vectors', value: true },
                ],
              },
            },
          ],
        },
        { text: ANSWER },
      ],
    },
  ],
};

/** The route each format posts to on the scripted server. */
const routes: Record<EndpointFormat, string> = {
  'openai-chat': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
  'openai-compatible': '/v1/chat/completions',
  anthropic: '/v1/messages',
  gemini: '/v1beta/models/scripted-model:streamGenerateContent',
  'ai-sdk-chat': '/api/chat',
};

interface Case {
  name: string;
  format: EndpointFormat;
  settings: Record<string, unknown>;
}

describe('the foundation scenario through the real extension, for every endpoint format', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  const cases: Case[] = [
    ...endpointFormats.map((format) => ({ name: format, format, settings: {} })),
    { name: 'ai-sdk-chat with a continuation turn', format: 'ai-sdk-chat' as const, settings: { continuation: true } },
  ];

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it.each(cases)(
    '$name: getParameters, setParameters (speed 12, show_vectors), then one line of text',
    async ({ format, settings }) => {
      await configureProfile(session, { ...scriptedEndpointSettings(format, server.origin), ...settings });
      server.setScript(foundationScript);
      server.clearRequests();
      const panel = await session.openPanel();
      await panel.click('button::-p-text(New chat)');
      // The target starts from its defaults, so the values below can only come from this run.
      expect(await manualTool(panel, 'openTarget', { targetId: 'particles' })).toMatchObject({ ok: true });
      expect(await manualTool(panel, 'resetTarget', {})).toMatchObject({ ok: true });
      const frame = await session.targetFrame('particles');
      const before = await readInsideTarget(frame);
      expect(before.state.speed).not.toBe(12);
      // Opening the target brought the stage tab to the front; the user types in the panel.
      await panel.bringToFront();

      const started = Date.now();
      await sendMessage(panel, 'Make the particles faster, 12 m/s, and show their vectors.');
      expect(await waitForTurnEnd(panel, 0)).toBe('completed');
      console.log(
        `[e2e] ${format}${settings.continuation ? ' (continuation)' : ''}: three-step turn with two tool calls took ${Date.now() - started} ms`,
      );

      const inside = await readInsideTarget(frame);
      expect(inside.state.speed).toBe(12);
      expect(inside.state.show_vectors).toBe(true);
      expect(inside.applyCount - before.applyCount).toBe(1);

      expect(server.requests.map((request) => request.path.split('?')[0])).toEqual([
        routes[format],
        routes[format],
        routes[format],
      ]);
      const lastBody = JSON.stringify(server.requests[2].body);
      expect(lastBody).toContain('applied');
      expect(lastBody).toContain('show_vectors');
      if (settings.continuation) expect(lastBody).toContain('"continuation":true');

      const text = await panel.$$eval('.assistant-message', (items) =>
        items.map((item) => item.textContent).join('\n'),
      );
      expect(text).toContain(ANSWER);
      expect(text).not.toContain('Continue.');
      const cards = await panel.$$eval('section.tool-card', (items) =>
        items.map((item) => `${item.getAttribute('aria-label')}:${item.getAttribute('data-status')}`),
      );
      expect(cards).toEqual(['Tool call getParameters:done', 'Tool call setParameters:done']);
      await panel.close();
    },
  );
});
