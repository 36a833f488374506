import { ListResourcesResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { jsonObjectSchema } from '../protocol/json-value';
import { MCP_APP_RESOURCE_READ_LIMIT } from '../protocol/mcp-app-wire';
import { type McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import { issueText } from '../protocol/issue-text';

/**
 * A server's `resources/list` page as an app gets it: checked with the MCP SDK's own schema (its `nextCursor` kept,
 * for the app to ask for the next page), as JSON of at most `MCP_APP_RESOURCE_READ_LIMIT` characters.
 */
export function mcpAppResourceList(serverName: string, listed: unknown): McpAppToolAnswer {
  const parsed = ListResourcesResultSchema.safeParse(listed);
  if (!parsed.success)
    return { error: `${serverName} sent an unusable resource list: ${issueText(parsed.error.issues[0])}` };
  const text = JSON.stringify(parsed.data);
  if (text.length > MCP_APP_RESOURCE_READ_LIMIT)
    return { error: `${serverName} sent a resource list larger than ${MCP_APP_RESOURCE_READ_LIMIT} characters.` };
  const json = jsonObjectSchema.safeParse(JSON.parse(text));
  return json.success ? { result: json.data } : { error: `${serverName} sent a resource list that is not JSON.` };
}
