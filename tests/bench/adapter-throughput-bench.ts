/**
 * `npm run bench`: bytes → AgentEvents through the adapter path (the AI SDK OpenAI chat provider, streamText
 * and StepStreamMapper, as a turn uses them) for one long OpenAI chat-completions stream, beside the floor
 * measured in the same run on the same bytes cut the same way: TextDecoder, split on blank lines, JSON.parse
 * of each frame. Runs in Chromium (the browser the adapter runs in). Prints `BENCH {json}`.
 */
import { z } from 'zod';
import { declaredTools } from '../../lib/agent/declared-tools';
import { StepStreamMapper } from '../../lib/agent/step-stream-mapper';
import { streamStep } from '../../lib/agent/stream-step';
import { createLanguageModel } from '../../lib/providers/create-language-model';
import { replayFetch, type RecordedResponse } from '../support/replay-fetch';
import type { ModelStreamEvent } from '../../scripts/scripted-model-server/model-stream-event';
import { encodeOpenAIChatStream } from '../../scripts/scripted-model-server/openai-chat-encoder';
import { splitArgumentsIntoDeltas } from '../../scripts/scripted-model-server/step-to-events';

z.config({ jitless: true });
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const TEXT_DELTAS = 20_000;
const TOOL_CALLS = 20;
/** What one network read hands over, roughly. */
const PIECE_BYTES = 1_024;
const RUNS = 7;

const words = [
  'Particles ',
  'move ',
  'at ',
  '12 ',
  'm/s ',
  '速度 ',
  '已设为 ',
  '🚀 ',
  'and ',
  'vectors ',
  'are ',
  'on. ',
];

function streamEvents(): ModelStreamEvent[] {
  const events: ModelStreamEvent[] = Array.from({ length: TEXT_DELTAS }, (_, index) => ({
    type: 'text-delta' as const,
    text: words[index % words.length],
  }));
  for (let index = 0; index < TOOL_CALLS; index++) {
    const argumentsText = JSON.stringify({
      changes: [
        { param: 'speed', value: index },
        { param: 'label', value: `速度: "${index}" {x}` },
      ],
    });
    events.push({ type: 'tool-call-start', index, id: `call_${index}`, name: 'setParameters' });
    for (const argumentsDelta of splitArgumentsIntoDeltas(argumentsText))
      events.push({ type: 'tool-call-delta', index, argumentsDelta });
    events.push({ type: 'tool-call-end', index });
  }
  events.push({ type: 'finish', reason: 'tool-calls' });
  return events;
}

function pieces(bytes: Uint8Array): Uint8Array[] {
  const cut: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += PIECE_BYTES)
    cut.push(bytes.subarray(offset, offset + PIECE_BYTES));
  return cut;
}

async function adapterRun(
  recorded: RecordedResponse,
): Promise<{ ms: number; agentEvents: number; toolCalls: number; textLength: number }> {
  let counter = 0;
  const context = {
    sessionId: 's',
    turnId: 't',
    stepId: 'step',
    attemptId: 'attempt',
    newId: () => `id-${++counter}`,
    now: () => counter,
  };
  const mapper = new StepStreamMapper(context);
  let agentEvents = 0;
  const model = createLanguageModel(
    {
      kind: 'openai',
      api: 'chat',
      label: 'Bench',
      baseUrl: 'http://bench.invalid/v1',
      model: 'bench-model',
      apiKey: 'bench-key',
      scripted: true,
    },
    { fetch: replayFetch([recorded], pieces) },
  );
  const started = performance.now();
  await streamStep({
    model,
    messages: [{ role: 'user', content: 'go' }],
    tools: declaredTools(),
    signal: new AbortController().signal,
    mapper,
    emit: (drafts) => (agentEvents += drafts.length),
  });
  agentEvents += mapper.finalItems({ interrupted: false }).length;
  const ms = performance.now() - started;
  if (mapper.error !== undefined) throw mapper.error instanceof Error ? mapper.error : new Error(String(mapper.error));
  return { ms, agentEvents, toolCalls: mapper.toolCalls.length, textLength: mapper.assistantText().length };
}

function floorRun(bytes: Uint8Array): { ms: number; frames: number } {
  const started = performance.now();
  const decoder = new TextDecoder();
  let buffer = '';
  let frames = 0;
  const parse = (frame: string) => {
    const data = frame.startsWith('data: ') ? frame.slice(6) : frame;
    if (data === '[DONE]') return;
    JSON.parse(data);
    frames += 1;
  };
  for (const piece of pieces(bytes)) {
    buffer += decoder.decode(piece, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
  }
  buffer += decoder.decode();
  if (buffer.trim()) parse(buffer.trim());
  return { ms: performance.now() - started, frames };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Lets the page finish loading (and the runner see it) between runs that otherwise never leave microtasks. */
const yieldToBrowser = () => new Promise((resolve) => setTimeout(resolve, 0));

async function main() {
  await yieldToBrowser();
  const frames = encodeOpenAIChatStream(streamEvents(), {
    completionId: 'chatcmpl-bench',
    created: 0,
    model: 'bench-model',
    usage: { promptTokens: 10, completionTokens: 50_000 },
    includeUsageChunk: true,
  });
  const body = new TextEncoder().encode(frames.join(''));
  const recorded: RecordedResponse = {
    status: 200,
    statusText: 'OK',
    headers: [['content-type', 'text/event-stream']],
    body,
  };
  const adapter: number[] = [];
  const floor: number[] = [];
  let last = { agentEvents: 0, toolCalls: 0, textLength: 0 };
  let floorFrames = 0;
  // Interleaved, after one warm-up each, so both see the same machine state.
  for (let run = 0; run <= RUNS; run++) {
    await yieldToBrowser();
    const adapterResult = await adapterRun(recorded);
    const floorResult = floorRun(body);
    if (run === 0) continue;
    adapter.push(adapterResult.ms);
    floor.push(floorResult.ms);
    last = adapterResult;
    floorFrames = floorResult.frames;
  }
  if (last.toolCalls !== TOOL_CALLS) throw new Error(`Expected ${TOOL_CALLS} tool calls, got ${last.toolCalls}`);
  const megabytes = body.length / 1_000_000;
  const adapterMs = median(adapter);
  const floorMs = median(floor);
  return {
    name: 'adapter throughput (OpenAI chat stream → AgentEvents)',
    runtime: 'Chromium page',
    bytes: body.length,
    frames: floorFrames,
    textDeltas: TEXT_DELTAS,
    toolCalls: last.toolCalls,
    agentEvents: last.agentEvents,
    pieceBytes: PIECE_BYTES,
    runs: RUNS,
    adapterMs: Number(adapterMs.toFixed(1)),
    floorMs: Number(floorMs.toFixed(1)),
    adapterMBps: Number((megabytes / (adapterMs / 1000)).toFixed(2)),
    floorMBps: Number((megabytes / (floorMs / 1000)).toFixed(2)),
    adapterFramesPerSecond: Math.round(floorFrames / (adapterMs / 1000)),
    ratio: Number((adapterMs / floorMs).toFixed(1)),
  };
}

main().then(
  (figures) => console.log(`BENCH ${JSON.stringify(figures)}`),
  (error: unknown) =>
    console.log(`BENCH-ERROR ${error instanceof Error ? `${error.message}\n${error.stack}` : String(error)}`),
);
