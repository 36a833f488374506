import { z } from 'zod';
import { jsonObjectSchema } from './json-value';

const definitionSchema = z.object({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  serverId: z.string(),
  serverName: z.string(),
  toolName: z.string(),
  description: z.string(),
  inputSchema: jsonObjectSchema,
  mode: z.enum(['ask', 'allow']),
  readOnly: z.boolean(),
});

/** The runtime's answer to `mcp/tools`: the tools of the connected servers, and what was left out and why. */
export const mcpToolsResultSchema = z.object({ tools: z.array(definitionSchema), notes: z.array(z.string()) });
export type McpToolsResult = z.infer<typeof mcpToolsResultSchema>;
