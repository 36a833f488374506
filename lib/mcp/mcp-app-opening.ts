import type { JsonObject, JsonValue } from '../protocol/json-value';
import type { McpAppLoad } from '../protocol/mcp-app-wire';
import { admittedConnect, declaredOrigins } from './mcp-app-connect';
import { mcpAppDocument } from './mcp-app-resource';
import { mcpCallResultSchema } from './mcp-call-result';
import { mcpFailureMessage, type McpSession } from './mcp-connection';
import type { McpToolDefinition } from './mcp-tool-catalog';

/** An MCP App to show: the call that opened it (its conversation and key) and what the stage hands the app. */
export interface McpAppOpening {
  sessionId: string;
  callKey: string;
  serverId: string;
  title: string;
  app: McpAppLoad;
}

/** Shows an opening in the stage; the target id it got there, or why not. */
export type OpenMcpApp = (
  opening: McpAppOpening,
) => Promise<{ ok: true; targetId: string } | { ok: false; error: string }>;

function jsonCopy(value: unknown): JsonObject {
  return JSON.parse(JSON.stringify(value ?? {})) as JsonObject;
}

/**
 * Reads a tool's `ui://` resource through its server's session and shows it with the call's input and result.
 * What the tool output says of it, for the model and the log: the resource, the target it runs as, or the failure.
 */
export async function openMcpAppOf(
  session: McpSession,
  tool: McpToolDefinition & { appUri: string },
  call: { sessionId: string; callKey: string; input: JsonObject; raw: unknown },
  openApp: OpenMcpApp,
  /** The origins the user granted this server's resource; only those it also declares are admitted. */
  granted: readonly string[] = [],
): Promise<{ [key: string]: JsonValue }> {
  const resourceUri = tool.appUri;
  let read: unknown;
  try {
    read = await session.readResource(resourceUri);
  } catch (error) {
    return { resourceUri, error: `Could not read the app: ${mcpFailureMessage(error)}` };
  }
  const document = mcpAppDocument(read, resourceUri);
  if (!document.ok) return { resourceUri, error: document.error };
  const result = mcpCallResultSchema.safeParse(call.raw);
  const declared = declaredOrigins(document.csp.connectDomains).slice(0, 20);
  const admitted = admittedConnect(declared, granted);
  const opened = await openApp({
    sessionId: call.sessionId,
    callKey: call.callKey,
    serverId: tool.serverId,
    title: tool.toolName,
    app: {
      resourceUri,
      serverName: tool.serverName,
      html: document.html,
      csp: document.csp,
      grantedConnect: admitted,
      // The catalog's description is the model's (it names the server); the app gets the tool's name and schema.
      tool: { name: tool.toolName, inputSchema: tool.inputSchema },
      input: call.input,
      result: jsonCopy(result.success ? result.data : {}),
    },
  });
  if (!opened.ok) return { resourceUri, error: `Could not show the app: ${opened.error}` };
  return {
    resourceUri,
    targetId: opened.targetId,
    shown:
      'The app is shown in the stage with this call’s input and result; it may call its server’s tools, each with the user’s approval.',
    ...(declared.length > 0
      ? {
          serverId: tool.serverId,
          connectGranted: admitted,
          connectDomainsNotGranted: declared.filter((origin) => !admitted.includes(origin)),
        }
      : {}),
  };
}
