import { z } from 'zod';

/**
 * The user's grant of one origin to one MCP App (a server's `ui://` resource): the app may reach it through the
 * stage's relay while its resource also declares it in `_meta.ui.csp.connectDomains`.
 */
export const mcpAppGrantSchema = z.object({
  serverId: z.string().min(1).max(32),
  resourceUri: z
    .string()
    .max(2000)
    .refine((uri) => uri.startsWith('ui://'), 'Not a ui:// resource.'),
  origin: z
    .string()
    .max(500)
    .refine((origin) => {
      try {
        const url = new URL(origin);
        return /^https?:$/.test(url.protocol) && !/[*%]/.test(origin) && url.origin === origin;
      } catch {
        return false;
      }
    }, 'Not an http or https origin.'),
});
export type McpAppGrant = z.infer<typeof mcpAppGrantSchema>;

export const mcpAppGrantListSchema = z.array(mcpAppGrantSchema).max(500);
