import { describe, expect, it } from 'vitest';
import { fenceSafeChunks, partialFenceEndLength } from './fence-safe-chunks';

async function collect(chunks: string[]): Promise<string[]> {
  const out: string[] = [];
  async function* source() {
    yield* chunks;
  }
  for await (const chunk of fenceSafeChunks(source())) out.push(chunk);
  return out;
}

describe('fenceSafeChunks', () => {
  it('measures the part of a fence end a text ends with', () => {
    expect(partialFenceEndLength('value}\n``')).toBe(2);
    expect(partialFenceEndLength('value}\n`')).toBe(1);
    expect(partialFenceEndLength('value}\n```')).toBe(0);
    expect(partialFenceEndLength('text </tool_ca')).toBe(9);
    expect(partialFenceEndLength('plain text')).toBe(0);
  });

  it('never ends a chunk with part of a fence end, and loses no text', async () => {
    const text =
      'Setting it.\n```tool_call\n{"name": "setParameter", "arguments": {"param": "speed", "value": 20}}\n```';
    for (const size of [1, 2, 3, 5, 7, 11]) {
      const chunks = await collect(text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? []);
      expect(chunks.join('')).toBe(text);
      for (const chunk of chunks) expect(partialFenceEndLength(chunk)).toBe(0);
    }
  });

  it('ends a stream that stops on part of a fence end with a newline', async () => {
    expect(await collect(['a `code', '`'])).toEqual(['a `code', '`\n']);
  });
});
