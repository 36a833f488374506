import { describe, expect, it } from 'vitest';
import { anthropicMessagesWireFormat } from './anthropic-messages-wire-format';
import { chunkBytes } from './chunk-bytes';
import { geminiWireFormat } from './gemini-wire-format';
import { openAIChatWireFormat } from './openai-chat-wire-format';
import { openAIResponsesWireFormat } from './openai-responses-wire-format';
import { decodeSseChunks } from './read-sse-frames';
import { stepToEvents } from './step-to-events';
import { uiMessageStreamWireFormat } from './ui-message-stream-wire-format';
import type { ReplyContext, RequestTarget, WireFormat } from './wire-format';

const context: ReplyContext = {
  replyNumber: 3,
  created: 1700000000,
  model: 'scripted-model',
  usage: { promptTokens: 5, completionTokens: 9 },
};

interface ChunkingCase {
  readonly format: WireFormat;
  readonly body: unknown;
  readonly pathname: string;
}

const cases: ChunkingCase[] = [
  {
    format: openAIChatWireFormat,
    body: { stream: true, messages: [{ role: 'user', content: 'hi' }] },
    pathname: '/v1/chat/completions',
  },
  { format: openAIResponsesWireFormat, body: { stream: true, input: 'hi' }, pathname: '/v1/responses' },
  {
    format: anthropicMessagesWireFormat,
    body: { stream: true, messages: [{ role: 'user', content: 'hi' }] },
    pathname: '/v1/messages',
  },
  {
    format: geminiWireFormat,
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    pathname: '/v1beta/models/scripted-model:streamGenerateContent',
  },
  {
    format: uiMessageStreamWireFormat,
    body: { messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] },
    pathname: '/api/chat',
  },
];

const events = stepToEvents(
  {
    reasoning: '先想一想 🤔 then act.',
    text: '速度已设为 12 m/s 🚀，矢量已开启 ✅',
    toolCalls: [
      { name: 'setParameters', arguments: { changes: [{ param: 'label', value: '速度: "快", {ok}' }] } },
      { name: 'getParameters', arguments: {} },
    ],
  },
  { turnIndex: 0, stepIndex: 0 },
);

describe.each(cases)('$format.name frames cut into random 1-5 byte pieces', ({ format, body, pathname }) => {
  const target: RequestTarget = { pathname, searchParams: new URLSearchParams('alt=sse'), headers: {} };
  const parsed = format.parseRequest(body, target);
  if (!parsed.success) throw new Error(parsed.message);
  const frames = [
    ...parsed.request.encodeStream(events, context),
    format.malformedFrame,
    ...format.streamErrorFrames('boom', context, 0),
  ];
  const expected = frames.flatMap((frame) => decodeSseChunks([Buffer.from(frame, 'utf8')]).frames);
  const bytes = Buffer.from(frames.join(''), 'utf8');

  it('decode to the identical frames for every seed', () => {
    expect(expected).toHaveLength(frames.length);
    for (let seed = 1; seed <= 25; seed += 1) {
      const pieces = chunkBytes(bytes, { seed });
      expect(pieces.every((piece) => piece.length >= 1 && piece.length <= 5)).toBe(true);
      expect(decodeSseChunks(pieces).frames).toEqual(expected);
    }
  });

  it('split multi-byte characters and line endings across pieces', () => {
    const pieces = chunkBytes(bytes, { seed: 2 });
    expect(pieces.some((piece) => !Buffer.from(piece.toString('utf8'), 'utf8').equals(piece))).toBe(true);
    const crlfSplits = pieces.filter((piece, index) => piece.at(-1) === 0x0d && pieces[index + 1]?.at(0) === 0x0a);
    if (format.name === 'gemini') expect(crlfSplits.length).toBeGreaterThan(0);
  });
});
