import { describe, expect, it } from 'vitest';
import { mcpAppContent } from './mcp-app-content';

const limits = { images: 2, bytes: 12 };
const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };

describe('mcpAppContent', () => {
  it('joins the text blocks and keeps the images in order', () => {
    expect(
      mcpAppContent([{ type: 'text', text: 'One' }, image, { type: 'text', text: 'Two' }], 'Taken', limits),
    ).toEqual({ ok: true, text: 'One\n\nTwo', images: [{ data: 'iVBORw0KGgo=', mimeType: 'image/png' }] });
  });

  it('refuses any other block by its type, a block without its fields, and images past the limits', () => {
    expect(mcpAppContent([{ type: 'resource_link' }], 'Only text and image blocks are taken', limits)).toEqual({
      ok: false,
      reason: 'Only text and image blocks are taken, not resource_link.',
    });
    expect(mcpAppContent([{ type: 'text' }], 'Taken', limits)).toEqual({
      ok: false,
      reason: 'Block 1 is a text block without text.',
    });
    expect(mcpAppContent([image, image, image], 'Taken', limits)).toEqual({
      ok: false,
      reason: 'It gave 3 images; at most 2 are taken.',
    });
    expect(mcpAppContent([image, image], 'Taken', { images: 2, bytes: 15 })).toEqual({
      ok: false,
      reason: 'Its images have more than 15 bytes in all.',
    });
  });
});
