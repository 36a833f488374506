import { jsonSchema, tool, type ToolSet } from 'ai';
import type { McpToolDefinition } from './mcp-tool-catalog';

/** The MCP tools as the AI SDK declares them to the model: their own JSON Schemas, already checked. */
export function mcpToolSet(definitions: readonly McpToolDefinition[]): ToolSet {
  return Object.fromEntries(
    definitions.map((definition) => [
      definition.name,
      tool<unknown, never>({
        description: definition.description,
        inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]) as never,
      }),
    ]),
  );
}
