import { z } from 'zod';
import type { JsonValue } from '../protocol/json-value';
import type { McpAppGrant } from '../protocol/mcp-app-grant';

const appOutputSchema = z.object({
  app: z.object({
    serverId: z.string().min(1).max(32),
    resourceUri: z.string().max(2000),
    connectGranted: z.array(z.string().max(500)).max(50),
    connectDomainsNotGranted: z.array(z.string().max(500)).max(50),
  }),
});

/** The origins an MCP App opened by a tool call declares, for the panel to ask the user about; none for other calls. */
export interface McpAppNetworkAsk {
  serverId: string;
  resourceUri: string;
  origins: string[];
}

export function mcpAppNetworkAsk(output: JsonValue | undefined): McpAppNetworkAsk | undefined {
  const parsed = appOutputSchema.safeParse(output);
  if (!parsed.success) return undefined;
  const { serverId, resourceUri, connectGranted, connectDomainsNotGranted } = parsed.data.app;
  const origins = [...new Set([...connectGranted, ...connectDomainsNotGranted])];
  return origins.length > 0 ? { serverId, resourceUri, origins } : undefined;
}

/** Whether the user granted this origin to this app now (the stored grants, not what the call's output said). */
export function isAppOriginGranted(grants: readonly McpAppGrant[], ask: McpAppNetworkAsk, origin: string): boolean {
  return grants.some(
    (grant) => grant.serverId === ask.serverId && grant.resourceUri === ask.resourceUri && grant.origin === origin,
  );
}
