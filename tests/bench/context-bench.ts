/**
 * `npm run bench -- "context"`: what a 60-step page task sends the model, aged as the product ages it at two windows,
 * against sending everything. Each step is an action whose result carries a fresh observation of about 4k tokens of
 * the one tab, as actOnPage returns. The preamble is the product's own system prompt and tool definitions, and
 * tokens are counted with the product's tokenizer.
 */
import type { ModelMessage } from 'ai';
import { declaredTools } from '@/lib/agent/declared-tools';
import { SYSTEM_PROMPT } from '@/lib/agent/system-prompt';
import { ageToolResults, agingPolicyFor } from '@/lib/context/age-tool-results';
import { promptLimitOf, contextWindowOf } from '@/lib/context/context-window';
import { toolsText } from '@/lib/context/estimate-prompt-tokens';
import { loadTokenCounter, type TokenCounter } from '@/lib/context/token-counter';
import { parseEndpointSettings } from '@/lib/settings/endpoint-settings';

const STEPS = 60;
const OBSERVATION_TOKENS = 4_000;
const WINDOWS = [128_000, 32_768];

function snapshotText(counter: TokenCounter, step: number): string {
  const lines: string[] = [];
  for (let index = 0; counter.count(lines.join('')) < OBSERVATION_TOKENS; index += 10)
    for (let line = index; line < index + 10; line++) lines.push(`- button "Item ${step}.${line}" [ref=e${line}]\n`);
  return lines.join('');
}

function stepMessages(step: number, snapshot: string): ModelMessage[] {
  const toolCallId = `call-${step}`;
  const observation = {
    observationId: `obs-${step}`,
    tabId: 7,
    url: `https://shop.test/page/${step}`,
    title: 'Shop',
    snapshot,
  };
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Step ${step}: clicking the next item.` },
        {
          type: 'tool-call',
          toolCallId,
          toolName: 'actOnPage',
          input: { observationId: `obs-${step - 1}`, ref: 'e1' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: 'actOnPage',
          output: { type: 'json', value: { ok: true, hit: 'button "Next"', observation } },
        },
      ],
    },
  ];
}

function commonPrefix(previous: string, next: string): string {
  let same = 0;
  while (same < previous.length && same < next.length && previous[same] === next[same]) same++;
  return next.slice(0, same);
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

function run(counter: TokenCounter, preamble: string, snapshots: string[], windowTokens: number | undefined) {
  const limit =
    windowTokens === undefined
      ? undefined
      : promptLimitOf(
          contextWindowOf(
            parseEndpointSettings({
              kind: 'openai-compatible',
              baseUrl: 'http://127.0.0.1:1234/v1',
              model: 'bench',
              contextWindowTokens: windowTokens,
            })!,
          ),
        );
  const policy = agingPolicyFor(limit);
  const history: ModelMessage[] = [{ role: 'user', content: 'Add the first sixty items of the shop to the basket.' }];
  const sent: number[] = [];
  const everything: number[] = [];
  let sharedTokens = 0;
  let previous: string | undefined;
  for (let step = 1; step <= STEPS; step++) {
    const text = [preamble, ...ageToolResults(history, policy).map((message) => JSON.stringify(message))].join('\n');
    sent.push(counter.count(text));
    everything.push(counter.count([preamble, ...history.map((message) => JSON.stringify(message))].join('\n')));
    if (previous !== undefined) sharedTokens += counter.count(commonPrefix(previous, text));
    previous = text;
    history.push(...stepMessages(step, snapshots[step - 1]));
  }
  return {
    window: windowTokens ?? 'none',
    promptLimit: limit ?? 'none',
    promptTokens: { first: sent[0], fifth: sent[4], tenth: sent[9], last: sent.at(-1), max: Math.max(...sent) },
    lastOverFifth: Number((sent.at(-1)! / sent[4]).toFixed(2)),
    maxOverFifth: Number((Math.max(...sent) / sent[4]).toFixed(2)),
    totalTokens: sum(sent),
    totalEverything: sum(everything),
    lastEverything: everything.at(-1),
    totalShare: Number((sum(sent) / sum(everything)).toFixed(3)),
    prefixShare: Number((sharedTokens / sum(sent.slice(1))).toFixed(3)),
  };
}

async function main(): Promise<void> {
  const counter = await loadTokenCounter();
  const preamble = `${SYSTEM_PROMPT}\n${toolsText(declaredTools())}`;
  const snapshots = Array.from({ length: STEPS }, (_, index) => snapshotText(counter, index + 1));
  console.log(
    `BENCH ${JSON.stringify({
      name: 'context',
      steps: STEPS,
      observationTokens: counter.count(snapshots[0]),
      preambleTokens: counter.count(preamble),
      windows: [...WINDOWS.map((window) => run(counter, preamble, snapshots, window))],
    })}`,
  );
}

await main();
