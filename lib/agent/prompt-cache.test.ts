import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { parseEndpointSettings } from '../settings/endpoint-settings';
import { replayLog } from '../state/reduce-events';
import { MemoryLog } from '../../tests/support/windowed-turns';
import { startTurn } from './turn-driver';

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({
    minPieceBytes: 65_536,
    maxPieceBytes: 65_536,
    // Two page actions, then an answer: the third request carries two tool results.
    respond: (body) => {
      const results = JSON.stringify(body).split('page.test').length - 1;
      if (results >= 2) return { text: 'Done.' };
      return { toolCalls: [{ name: results === 0 ? 'observePage' : 'listTabs', arguments: {} }] };
    },
  });
});
afterAll(() => server.close());

let observations = 0;
const observation = () => ({
  observationId: `o${++observations}`,
  tabId: 1,
  url: 'http://page.test/',
  snapshot: '- button "Go"',
});

async function runTurn(shape: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  server.clearRequests();
  const settings = parseEndpointSettings({ ...shape, model: 'scripted-model', apiKey: 'k' })!;
  const handle = startTurn({
    client: new MemoryLog().client(observation),
    settings,
    state: replayLog('s-cache', []),
    text: 'Look twice.',
  });
  expect(await handle.done).toBe('stop');
  return server.requests.map((request) => request.body as Record<string, unknown>);
}

describe('prompt caching against the scripted server', { timeout: 60_000 }, () => {
  it('Anthropic: the system prompt and the end of the history carry cache breakpoints', async () => {
    const bodies = await runTurn({ kind: 'anthropic', baseUrl: `${server.origin}/v1` });
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      const system = body.system as { cache_control?: unknown }[];
      expect(system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      const messages = body.messages as { content: { cache_control?: unknown }[] }[];
      const marks = messages.flatMap((message, index) =>
        message.content.some((part) => part.cache_control) ? [index] : [],
      );
      expect(marks.at(-1)).toBe(messages.length - 1);
      expect(marks.length).toBeLessThanOrEqual(3);
    }
    // The third: the question, two page actions and their results; the first observation in full follows message 1.
    const third = bodies[2].messages as { role: string; content: { cache_control?: unknown }[] }[];
    expect(third.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(
      third.flatMap((message, index) => (message.content.some((part) => part.cache_control) ? [index] : [])),
    ).toEqual([1, 4]);
  });

  it('OpenAI: every request of a conversation names the same prompt cache key', async () => {
    const bodies = await runTurn({ kind: 'openai', api: 'responses', baseUrl: `${server.origin}/v1` });
    expect(bodies.map((body) => body.prompt_cache_key)).toEqual(['s-cache', 's-cache', 's-cache']);
  });
});
