/** Why an MCP App's fetch of `url` is refused when its origin is not among those it was admitted to (`connect`). */
export function mcpAppFetchRefusal(url: string, connect: readonly string[]): string {
  const origin = originOf(url);
  return connect.length > 0
    ? `${origin} is not among the origins granted to this MCP App (${connect.join(', ')}).`
    : `${origin} was not granted to this MCP App: it reaches only origins its resource declares and you grant in the panel.`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url.slice(0, 200);
  }
}
