import type { JsonObject } from '../protocol/json-value';
import type { McpAppDisplayMode } from '../protocol/mcp-app-wire';

/** The tallest an inline app may grow to, as its container dimensions tell it. */
export const INLINE_MAX_HEIGHT = 4000;
const INLINE_MIN_HEIGHT = 100;

/** The CSS height of an inline app's frame for the content height it says it has. */
export function inlineFrameHeight(height: number): string {
  return `${Math.min(Math.max(height, INLINE_MIN_HEIGHT), INLINE_MAX_HEIGHT)}px`;
}

/** The space the app has: the stage's width and up to a tall maximum inline, the whole tab in full screen. */
export function mcpAppContainerDimensions(
  mode: McpAppDisplayMode,
  stage: { width: number; height: number },
): JsonObject {
  return mode === 'fullscreen'
    ? { width: stage.width, height: stage.height }
    : { width: stage.width, maxHeight: INLINE_MAX_HEIGHT };
}
