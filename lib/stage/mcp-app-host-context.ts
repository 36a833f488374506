import type { JsonObject } from '../protocol/json-value';
import { MCP_APP_HOST_DISPLAY_MODES, type McpAppToolInfo } from '../protocol/mcp-app-wire';

/** What the stage knows of its page when it opens an app. */
export interface StageSurroundings {
  theme: 'light' | 'dark';
  locale: string;
  timeZone: string;
  containerDimensions: JsonObject;
}

/** The host context an app opens with (`ui/initialize`): inline, in the stage's theme, with the tool that opened it. */
export function mcpAppHostContext(surroundings: StageSurroundings, tool: McpAppToolInfo): JsonObject {
  return {
    theme: surroundings.theme,
    displayMode: 'inline',
    availableDisplayModes: [...MCP_APP_HOST_DISPLAY_MODES],
    platform: 'web',
    locale: surroundings.locale,
    timeZone: surroundings.timeZone,
    userAgent: 'splitbrain',
    containerDimensions: surroundings.containerDimensions,
    toolInfo: { tool },
  };
}
