import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestPromptTokens } from '../../scripts/scripted-model-server/context-length-error';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { endpointFormats, scriptedEndpointSettings } from '../support/scripted-endpoint-settings';
import { isSummaryRequest } from '../support/summary-request';
import { MemoryLog } from '../support/windowed-turns';

/** A small local model's window; our system prompt and tool definitions alone are about 6,000 of it. */
const WINDOW = 8_192;
const TURNS = 100;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const words = (count: number, seed: number) =>
  Array.from({ length: count }, (_, index) => WORDS[(index * 5 + seed) % WORDS.length]).join(' ');
const message = (turn: number) => `Turn ${turn}: note the word ${WORDS[turn % WORDS.length]}. ${words(40, turn)}`;

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({
    contextWindowTokens: WINDOW,
    // Whole frames: the window is under test here, not chunking (the chunking suite has that).
    minPieceBytes: 1 << 20,
    maxPieceBytes: 1 << 20,
    respond: (body) => {
      if (isSummaryRequest(body))
        return { text: 'Summary: the user sent numbered turns, each asking to note a word; each was noted.' };
      const turn = [...JSON.stringify(body).matchAll(/Turn (\d+):/g)].map((match) => Number(match[1])).at(-1);
      return { text: `Noted for turn ${turn}: ${words(120, turn ?? 0)}` };
    },
  });
});
afterAll(() => server.close());

describe(`a ${TURNS}-turn conversation at a ${WINDOW}-token window the endpoint enforces`, { timeout: 120_000 }, () => {
  it.each(endpointFormats)('%s: goes on without one request over the window', async (format) => {
    const settings = { ...scriptedEndpointSettings(format, server.origin), contextWindowTokens: WINDOW };
    const from = server.requests.length;
    const log = new MemoryLog();
    for (let turn = 0; turn < TURNS; turn++) {
      const outcome = await log.turn(settings, message(turn));
      expect(outcome, JSON.stringify(log.ofType('stream/error').at(-1)?.data)).toBe('stop');
      expect(log.ofType('assistant/completed').at(-1)?.data.text).toMatch(new RegExp(`^Noted for turn ${turn}:`));
    }
    const requests = server.requests.slice(from);
    const turns = requests.filter((request) => !isSummaryRequest(request.body));
    const tokens = log.ofType('step/completed').map((event) => event.data.usage?.inputTokens ?? 0);
    const compactions = log.ofType('context/compacted');
    console.log(
      `[context] ${format}: ${turns.length} turn requests, ${compactions.length} compactions, largest prompt ${Math.max(...tokens) || 'not reported'} of ${WINDOW} (as the server counted it), last ${requestPromptTokens(turns.at(-1)!.body)}`,
    );
    expect(server.overWindow, 'no request passed the window').toEqual([]);
    expect(log.ofType('stream/error')).toEqual([]);
    expect(turns).toHaveLength(TURNS);
    expect(compactions.length, 'summarised on the way').toBeGreaterThanOrEqual(1);
    expect(compactions.every((event) => event.data.method === 'model')).toBe(true);
    const last = JSON.stringify(turns.at(-1)!.body);
    expect(last, 'the last request carries a summary').toContain('<conversation-summary>');
    expect(last, 'and the last message').toContain(message(TURNS - 1));
    expect(last, 'not the first').not.toContain(message(0));
  });
});
