import { describe, expect, it } from 'vitest';
import type { BlobRef } from '../protocol/blob-ref';
import { TEST_PNG_BASE64 } from '../../tests/support/mcp-test-server';
import { mcpToolOutput, type StoreMcpImage } from './mcp-call-result';

const ref: BlobRef = {
  blobId: 'a'.repeat(64),
  sha256: 'a'.repeat(64),
  mime: 'image/png',
  size: 70,
  name: 'mcp-image-1',
};

function recordingStore(): { store: StoreMcpImage; stored: Uint8Array[] } {
  const stored: Uint8Array[] = [];
  return {
    stored,
    store: (bytes) => {
      stored.push(bytes);
      return Promise.resolve({ ok: true, ref });
    },
  };
}

describe('mcpToolOutput', () => {
  it('joins text, stores images as BlobRefs and keeps structured content', async () => {
    const { store, stored } = recordingStore();
    const output = await mcpToolOutput(
      {
        content: [
          { type: 'text', text: 'One picture.' },
          { type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' },
        ],
        structuredContent: { count: 3 },
      },
      store,
    );
    expect(output).toEqual({
      ok: true,
      output: { text: 'One picture.', images: [ref], structuredContent: { count: 3 } },
    });
    expect(stored[0]?.subarray(1, 4)).toEqual(new TextEncoder().encode('PNG'));
  });

  it('makes a result the server marks as an error a tool error', async () => {
    const { store } = recordingStore();
    expect(await mcpToolOutput({ content: [{ type: 'text', text: 'Locked.' }], isError: true }, store)).toEqual({
      ok: false,
      error: 'Locked.',
    });
  });

  it('notes content it cannot pass on and refuses what is not a result', async () => {
    const { store } = recordingStore();
    expect(await mcpToolOutput({ content: [{ type: 'video' }] }, store)).toEqual({
      ok: true,
      output: { text: '', notes: ['Content 0 is of an unknown kind and was left out.'] },
    });
    expect(await mcpToolOutput('garbage', store)).toEqual({
      ok: false,
      error: 'The server sent a tool result that is not an MCP CallToolResult.',
    });
  });
});
