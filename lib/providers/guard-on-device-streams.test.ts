import { describe, expect, it } from 'vitest';
import { partialFenceEndLength } from './fence-safe-chunks';
import { guardOnDeviceStreams } from './guard-on-device-streams';

function fakeApi(pieces: string[]) {
  return {
    create: async () => ({
      promptStreaming: () =>
        new ReadableStream<string>({
          start(controller) {
            for (const piece of pieces) controller.enqueue(piece);
            controller.close();
          },
        }),
    }),
  };
}

async function read(stream: ReadableStream<string>): Promise<string[]> {
  const reader = stream.getReader();
  const chunks: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

describe('guardOnDeviceStreams', () => {
  it('makes every session stream fence-safe chunks, once however often it is called', async () => {
    const scope = { LanguageModel: fakeApi(['{"a": 1}\n`', '``', ' done']) };
    guardOnDeviceStreams(scope);
    guardOnDeviceStreams(scope);
    const session = await scope.LanguageModel.create();
    const chunks = await read(session.promptStreaming());
    expect(chunks.join('')).toBe('{"a": 1}\n``` done');
    for (const chunk of chunks) expect(partialFenceEndLength(chunk)).toBe(0);
  });

  it('does nothing without the API', () => {
    expect(() => guardOnDeviceStreams({})).not.toThrow();
  });
});
