/** Providers accept tool names of at most 64 characters from this set (OpenAI and Anthropic alike). */
export const TOOL_NAME_LIMIT = 64;
const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

function sanitize(part: string): string {
  return part.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** A short, stable digest so two long names cut to the same prefix stay distinct (FNV-1a, 32 bits). */
function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, '0');
}

/**
 * The name the model sees for a server's tool: `mcp_<server>_<tool>`, cut with a digest of the full name when
 * it would pass the providers' limit. The same server and tool always give the same name.
 */
export function mcpToolName(serverId: string, toolName: string): string {
  const full = `mcp_${sanitize(serverId)}_${sanitize(toolName)}`;
  const exact = full === `mcp_${serverId}_${toolName}`;
  if (exact && full.length <= TOOL_NAME_LIMIT) return full;
  const suffix = `_${digest(`${serverId}\u0000${toolName}`)}`;
  return `${full.slice(0, TOOL_NAME_LIMIT - suffix.length)}${suffix}`;
}

export function isMcpToolName(name: string): boolean {
  return name.startsWith('mcp_') && TOOL_NAME_PATTERN.test(name);
}
