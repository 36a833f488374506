import { describe, expect, it } from 'vitest';
import { JSON_RPC_ERRORS, MCP_APP_DECLINED } from '../protocol/mcp-app-wire';
import { checkedAppMessage, checkedModelContext } from './mcp-app-checked-requests';

const PIXEL = { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' };

describe('checkedAppMessage', () => {
  it('joins the text blocks and keeps the images, for one block or several', () => {
    expect(checkedAppMessage({ type: 'text', text: 'Hello' })).toEqual({
      ok: true,
      request: { method: 'ui/message', text: 'Hello' },
    });
    expect(checkedAppMessage([{ type: 'text', text: 'One' }, { type: 'text', text: 'Two' }, PIXEL])).toEqual({
      ok: true,
      request: { method: 'ui/message', text: 'One\n\nTwo', images: [{ data: PIXEL.data, mimeType: 'image/png' }] },
    });
  });

  it('refuses a message too long, an empty one, and another kind of block, as invalid params', () => {
    expect(checkedAppMessage({ type: 'text', text: 'x'.repeat(10_001) })).toEqual({
      ok: false,
      code: JSON_RPC_ERRORS.invalidParams,
      reason: 'The message is longer than 10000 characters.',
    });
    expect(checkedAppMessage([])).toEqual({
      ok: false,
      code: JSON_RPC_ERRORS.invalidParams,
      reason: 'The message has neither text nor an image.',
    });
    expect(checkedAppMessage([{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }])).toMatchObject({
      ok: false,
      reason: 'Only text and image blocks are taken, not audio.',
    });
  });
});

describe('checkedModelContext', () => {
  it('keeps text, images and structured content', () => {
    expect(
      checkedModelContext({ content: [{ type: 'text', text: 'At 42.' }, PIXEL], structuredContent: { count: 42 } }),
    ).toEqual({
      ok: true,
      request: {
        method: 'ui/update-model-context',
        text: 'At 42.',
        structuredContent: { count: 42 },
        images: [{ data: PIXEL.data, mimeType: 'image/png' }],
      },
    });
  });

  it('declines a context larger than the limit, structured content counted', () => {
    expect(checkedModelContext({ structuredContent: { note: 'x'.repeat(8_000) } })).toEqual({
      ok: false,
      code: MCP_APP_DECLINED,
      reason: 'The context is larger than 8000 characters.',
    });
  });
});
