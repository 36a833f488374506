import { MCP_APP_HOST_DISPLAY_MODES, mcpAppDisplayModeSchema, type McpAppDisplayMode } from '../protocol/mcp-app-wire';

/** The modes an app declared in `appCapabilities.availableDisplayModes` that the spec knows; none when it declared none. */
export function declaredDisplayModes(declared: readonly string[] | undefined): McpAppDisplayMode[] {
  return (declared ?? []).flatMap((mode) => {
    const parsed = mcpAppDisplayModeSchema.safeParse(mode);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The mode an app is shown in after it asks for `requested`: that mode when this host has it and the app declared
 * it, else the mode it is in (an app that declared no modes stays inline, where it opened).
 */
export function resultingDisplayMode(
  requested: McpAppDisplayMode,
  current: McpAppDisplayMode,
  declared: readonly McpAppDisplayMode[],
): McpAppDisplayMode {
  return MCP_APP_HOST_DISPLAY_MODES.includes(requested) && declared.includes(requested) ? requested : current;
}
