import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestPromptTokens } from '../../scripts/scripted-model-server/context-length-error';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { StreamableStep } from '../../scripts/scripted-model-server/script';
import { endpointFormats, scriptedEndpointSettings } from '../support/scripted-endpoint-settings';
import { isSummaryRequest } from '../support/summary-request';
import { MemoryLog } from '../support/windowed-turns';
import type { JsonObject, JsonValue } from '../../lib/protocol/json-value';
import type { ToolExecutionRequest } from '../../lib/protocol/tool-execution-request';

/** The window the endpoint enforces and the profile says; the reserve is the default (an eighth). */
const WINDOW = 32_768;
const STEPS = 60;
const ROWS = 190;
const TASK = `Open every one of the ${STEPS} items of the list in turn, from the first to the last.`;

/** About 4,000 tokens of page snapshot that no other observation repeats, as observePage would fence it. */
function snapshot(item: number): string {
  const rows = Array.from(
    { length: ROWS },
    (_, row) => `- row "Item ${item} line ${row} costs ${(item * 7919 + row * 104_729) % 100_000}" [ref=e${row + 2}]`,
  );
  const heading = `- heading "Item ${item} of ${STEPS}"\n- button "Open next item" [ref=e1]`;
  return `<<PAGE-DATA f1>>\n${heading}\n${rows.join('\n')}\n<<END-PAGE-DATA f1>>`;
}

function observation(item: number): JsonObject {
  return {
    observationId: `obs-${item}`,
    tabId: 7,
    frameId: 0,
    documentId: `doc-${item}`,
    url: `http://127.0.0.1:8080/items/${item}`,
    title: `<<PAGE-DATA f1>>\nItem ${item}\n<<END-PAGE-DATA f1>>`,
    capturedAt: 1_700_000_000_000 + item,
    viewport: { width: 1280, height: 800, devicePixelRatio: 1, scrollX: 0, scrollY: 0 },
    snapshot: snapshot(item),
    truncated: null,
    events: null,
    pageTools: null,
  };
}

/**
 * The page as the runtime answers: observePage gives the current item's observation; actOnPage on the newest
 * observation opens the next item and returns its fresh observation, on an older one it is refused as stale.
 */
class ItemsPage {
  item = 1;
  stale = 0;

  execute(request: ToolExecutionRequest): JsonValue {
    if (request.toolName === 'observePage') return observation(this.item);
    const input = request.input as { observationId?: string };
    if (request.toolName !== 'actOnPage') return { ok: false, code: 'INVALID_INPUT', error: 'Unexpected tool.' };
    if (input.observationId !== `obs-${this.item}`) {
      this.stale++;
      return { ok: false, code: 'STALE_OBSERVATION', error: 'Stale.', observation: observation(this.item) };
    }
    this.item = Math.min(STEPS, this.item + 1);
    const after = `http://127.0.0.1:8080/items/${this.item}`;
    return {
      ok: true,
      hit: { ref: 'e1' },
      urlBefore: '',
      urlAfter: after,
      evidence: null,
      observation: observation(this.item),
    };
  }
}

/**
 * A model that reads its prompt: it acts on the newest observation the request carries (the highest item it can
 * see), observes first when it sees none, and says it is done once it sees the last item.
 */
function pageModel(body: unknown): StreamableStep {
  const text = JSON.stringify(body);
  const seen = [...text.matchAll(/obs-(\d+)/g)].map((match) => Number(match[1]));
  const newest = seen.length ? Math.max(...seen) : 0;
  if (newest === 0) return { toolCalls: [{ name: 'observePage', arguments: {} }] };
  if (newest === STEPS && text.includes(`Item ${STEPS} of ${STEPS}`))
    return { text: `Done: all ${STEPS} items opened.` };
  return {
    text: `Opening item ${newest + 1}.`,
    toolCalls: [
      {
        id: `call-${newest}`,
        name: 'actOnPage',
        arguments: { observationId: `obs-${newest}`, ref: 'e1', action: 'click' },
      },
    ],
  };
}

let server: ScriptedModelServer;
let summaries = 0;
beforeAll(async () => {
  server = await startScriptedModelServer({
    contextWindowTokens: WINDOW,
    // Whole frames: the window is under test here, not chunking (the chunking suite has that).
    minPieceBytes: 1 << 20,
    maxPieceBytes: 1 << 20,
    respond: (body) =>
      isSummaryRequest(body)
        ? {
            text: `Summary ${++summaries}: the user asked to open every item of the list in turn; the assistant opened them one by one with actOnPage.`,
          }
        : pageModel(body),
  });
});
afterAll(() => server.close());

describe(
  `a ${STEPS}-step page task with 4k-token observations at a ${WINDOW}-token window the endpoint enforces`,
  { timeout: 120_000 },
  () => {
    it('observations are about 4,000 tokens each', () => {
      const tokens = requestPromptTokens(observation(1));
      expect(tokens).toBeGreaterThan(3_800);
      expect(tokens).toBeLessThan(4_400);
    });

    it.each(endpointFormats)('%s: completes without one request over the window', async (format) => {
      const settings = { ...scriptedEndpointSettings(format, server.origin), contextWindowTokens: WINDOW };
      const from = server.requests.length;
      const page = new ItemsPage();
      const log = new MemoryLog();
      const outcome = await log.turn(settings, TASK, (request) => page.execute(request));
      const requests = server.requests.slice(from);
      const steps = requests.filter((request) => !isSummaryRequest(request.body));
      const tokens = log.ofType('step/completed').map((event) => event.data.usage?.inputTokens ?? 0);
      const compactions = log.ofType('context/compacted');
      console.log(
        `[context] ${format}: ${steps.length} step requests, ${compactions.length} compactions (${compactions.map((event) => event.data.method).join(', ')}), largest prompt ${Math.max(...tokens) || 'not reported'} of ${WINDOW} (as the server counted it), last ${requestPromptTokens(steps.at(-1)!.body)}`,
      );
      expect(server.overWindow, 'no request passed the window').toEqual([]);
      expect(log.ofType('stream/error')).toEqual([]);
      expect(outcome).toBe('stop');
      expect(page.item).toBe(STEPS);
      expect(page.stale, 'every action quoted the newest observation').toBe(0);
      expect(steps).toHaveLength(STEPS + 1);
      expect(log.ofType('assistant/completed').at(-1)?.data).toMatchObject({
        text: `Done: all ${STEPS} items opened.`,
      });
      const last = JSON.stringify(steps.at(-1)!.body);
      expect(last, 'older observations went as stubs').toMatch(
        /Left out: observation obs-\d+ of this tab came after it/,
      );
      expect(last, 'the newest in full').toContain(`Item ${STEPS} line ${ROWS - 1} costs`);
      expect(last, 'the first long gone').not.toContain('Item 1 line 0 costs');
      // Two pages in full at 32k: aging nearly keeps the task inside by itself, so at most a summary or two, never a
      // churn of them. An AI SDK chat server declares its own tools: without their 5,400 tokens, aging alone does.
      if (format === 'ai-sdk-chat') expect(compactions).toEqual([]);
      else expect(compactions.length, 'no compaction churn').toBeLessThanOrEqual(3);
      expect(compactions.every((event) => event.data.method === 'model')).toBe(true);
    });
  },
);
