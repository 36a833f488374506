import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { COMPACTION_SYSTEM_PROMPT } from '../context/summarise-history';
import { parseEndpointSettings, type EndpointSettings } from '../settings/endpoint-settings';
import { replayLog } from '../state/reduce-events';
import { MemoryLog } from '../../tests/support/windowed-turns';
import { startTurn } from './turn-driver';

/**
 * Our system prompt and tool definitions alone count about 6,000 tokens on the server: at an 8k window a few turns
 * fill the rest. Every format and a hundred turns run in `tests/window/` (`npm run test:window`).
 */
const WINDOW = 8_192;
const TURNS = 14;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const words = (count: number, seed: number) =>
  Array.from({ length: count }, (_, index) => WORDS[(index * 5 + seed) % WORDS.length]).join(' ');

let server: ScriptedModelServer;
let replies = 0;
beforeAll(async () => {
  server = await startScriptedModelServer({
    contextWindowTokens: WINDOW,
    // Whole frames: the window is under test here, not chunking (the chunking suite has that).
    minPieceBytes: 65_536,
    maxPieceBytes: 65_536,
    respond: (body) =>
      JSON.stringify(body).includes(COMPACTION_SYSTEM_PROMPT.split('\n')[0])
        ? { text: `Summary ${++replies}: the user sent numbered turns of words; the assistant answered each.` }
        : { text: `Answer ${++replies}: ${words(400, replies)}` },
  });
});
afterAll(() => server.close());

const formats: [string, Record<string, unknown>][] = [
  ['OpenAI chat completions', { kind: 'openai-compatible', baseUrl: 'http://placeholder/v1' }],
  ['Anthropic messages', { kind: 'anthropic', baseUrl: 'http://placeholder/v1', apiKey: 'k' }],
  ['Gemini', { kind: 'google', baseUrl: 'http://placeholder/v1beta', apiKey: 'k' }],
];

// Forty turns against a local server, and the tokenizer's first load: slow on a busy machine, never timed.
describe('a conversation at an 8k window against the scripted server that enforces it', { timeout: 300_000 }, () => {
  it.each(formats)(
    '%s: the endpoint answers its real context-length error when the prompt is over',
    async (_name, shape) => {
      const settings = parseEndpointSettings({
        ...shape,
        baseUrl: String(shape.baseUrl).replace('http://placeholder', server.origin),
        model: 'scripted-model',
      })!;
      const log = new MemoryLog();
      const events = log.events;
      const handle = startTurn({
        client: log.client(() => ({ ok: true })),
        settings: { ...settings, contextWindowTokens: 1_000_000 } as EndpointSettings,
        state: replayLog('s', []),
        text: words(9_000, 1),
      });
      expect(await handle.done).toBe('interrupted');
      const error = events.find((event) => event.type === 'stream/error');
      expect(error?.type === 'stream/error' && error.data.message).toMatch(
        /maximum context length|prompt is too long|exceeds the maximum number of tokens/,
      );
    },
  );

  // One format for the long run: the others answer the same error above, and a run costs a minute on a busy machine.
  it.each(formats.slice(0, 1))(
    '%s: many turns go on without ever passing it, compacting on the way',
    async (_name, shape) => {
      const settings = parseEndpointSettings({
        ...shape,
        baseUrl: String(shape.baseUrl).replace('http://placeholder', server.origin),
        model: 'scripted-model',
        contextWindowTokens: WINDOW,
      })!;
      const before = server.overWindow.length;
      const log = new MemoryLog();
      const events = log.events;
      for (let turn = 0; turn < TURNS; turn++) {
        const state = replayLog(
          's',
          events.filter((event) => event.durable),
        );
        const handle = startTurn({
          client: log.client(() => ({ ok: true })),
          settings,
          state,
          text: `Turn ${turn}: ${words(60, turn)}`,
        });
        expect(await handle.done, JSON.stringify(events.filter((event) => event.type === 'stream/error'))).toBe('stop');
      }
      expect(server.overWindow.length).toBe(before);
      expect(events.filter((event) => event.type === 'context/compacted').length).toBeGreaterThan(1);
    },
  );

  it('a profile whose window the system prompt and tools nearly fill: each turn warns once and does not compact', async () => {
    // 5,000 less the 1,024 reserve leaves less than the preamble's 4,400 (the tools declared compactly, as below a
    // 16k limit): no summary could make room.
    const settings = parseEndpointSettings({
      kind: 'openai-compatible',
      baseUrl: `${server.origin}/v1`,
      model: 'scripted-model',
      contextWindowTokens: 5_000,
    })!;
    const log = new MemoryLog();
    const events = log.events;
    for (let turn = 0; turn < 3; turn++) {
      const state = replayLog(
        's',
        events.filter((event) => event.durable),
      );
      const handle = startTurn({
        client: log.client(() => ({ ok: true })),
        settings,
        state,
        text: `Turn ${turn}: ${words(20, turn)}`,
      });
      expect(await handle.done).toBe('stop');
    }
    const notices = events.filter((event) => event.type === 'notification');
    expect(notices).toHaveLength(3);
    expect(notices[0].type === 'notification' && notices[0].data.message).toMatch(
      /take about [\d,]+ of the 3,976 tokens a prompt may hold on this profile, so earlier turns cannot be summarised/,
    );
    expect(events.filter((event) => event.type === 'context/compacted')).toEqual([]);
  });
});
