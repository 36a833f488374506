/**
 * `npm run bench -- "context"`: what a 60-step page task sends the model, with and without aging. Each step is an
 * action whose result carries a fresh ~4k-token observation of the one tab, as actOnPage returns. Tokens are
 * estimated as characters / 4 (the same estimate for both sides, so the ratios hold; no tokenizer involved).
 */
import type { ModelMessage } from 'ai';
import { ageToolResults } from '@/lib/context/age-tool-results';

const STEPS = 60;
const OBSERVATION_TOKENS = 4_000;
/** System prompt and tool schemas, sent first in every request. */
const PREAMBLE = 'p'.repeat(3_000 * 4);

function snapshotText(step: number): string {
  const line = `- button "Item ${step}" [ref=e${step}]\n`;
  return line.repeat(Math.ceil((OBSERVATION_TOKENS * 4) / line.length)).slice(0, OBSERVATION_TOKENS * 4);
}

function stepMessages(step: number): ModelMessage[] {
  const toolCallId = `call-${step}`;
  const observation = {
    observationId: `obs-${step}`,
    tabId: 7,
    url: `https://shop.test/page/${step}`,
    title: 'Shop',
    snapshot: snapshotText(step),
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

const lines = (messages: ModelMessage[]) => [PREAMBLE, ...messages.map((message) => JSON.stringify(message))];
const tokens = (parts: string[]) => Math.round(parts.reduce((sum, part) => sum + part.length + 1, 0) / 4);

function sharedPrefixCharacters(previous: string[], next: string[]): number {
  let shared = 0;
  for (let index = 0; index < Math.min(previous.length, next.length); index++) {
    if (previous[index] !== next[index]) {
      const [left, right] = [previous[index], next[index]];
      let same = 0;
      while (same < left.length && same < right.length && left[same] === right[same]) same++;
      return shared + same;
    }
    shared += previous[index].length + 1;
  }
  return shared;
}

function main(): void {
  const history: ModelMessage[] = [{ role: 'user', content: 'Add the first sixty items of the shop to the basket.' }];
  const aged: number[] = [];
  const everything: number[] = [];
  const shares: number[] = [];
  let sharedTokens = 0;
  let previous: string[] | undefined;
  for (let step = 1; step <= STEPS; step++) {
    const sent = lines(ageToolResults(history));
    aged.push(tokens(sent));
    everything.push(tokens(lines(history)));
    if (previous) {
      const shared = sharedPrefixCharacters(previous, sent) / 4;
      sharedTokens += shared;
      shares.push(shared / tokens(sent));
    }
    previous = sent;
    history.push(...stepMessages(step));
  }
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const sorted = [...shares].sort((left, right) => left - right);
  console.log(
    `BENCH ${JSON.stringify({
      name: 'context',
      steps: STEPS,
      observationTokens: OBSERVATION_TOKENS,
      promptTokensAged: { first: aged[0], fifth: aged[4], tenth: aged[9], last: aged.at(-1), max: Math.max(...aged) },
      promptTokensEverything: { fifth: everything[4], last: everything.at(-1) },
      lastOverFifth: Number((aged.at(-1)! / aged[4]).toFixed(2)),
      totalAged: sum(aged),
      totalEverything: sum(everything),
      totalShare: Number((sum(aged) / sum(everything)).toFixed(3)),
      prefixShareTokenWeighted: Number((sharedTokens / sum(aged.slice(1))).toFixed(3)),
      prefixShareMedian: Number(sorted[Math.floor(sorted.length / 2)].toFixed(3)),
      prefixShareMin: Number(sorted[0].toFixed(3)),
    })}`,
  );
}

main();
