import { describe, expect, it } from 'vitest';
import { INLINE_MAX_HEIGHT, inlineFrameHeight, mcpAppContainerDimensions } from './mcp-app-frame-size';

describe("an MCP App frame's size", () => {
  it('is as tall as the app asks inline, between 100 px and the maximum', () => {
    expect(inlineFrameHeight(320)).toBe('320px');
    expect(inlineFrameHeight(12)).toBe('100px');
    expect(inlineFrameHeight(1_000_000)).toBe(`${INLINE_MAX_HEIGHT}px`);
  });

  it("tells the app the stage's width and the maximum height inline, the whole stage in full screen", () => {
    const stage = { width: 800, height: 600 };
    expect(mcpAppContainerDimensions('inline', stage)).toEqual({ width: 800, maxHeight: INLINE_MAX_HEIGHT });
    expect(mcpAppContainerDimensions('fullscreen', stage)).toEqual({ width: 800, height: 600 });
  });
});
