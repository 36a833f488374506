import { z } from 'zod';
import { jsonObjectSchema, jsonValueSchema, type JsonObject } from './json-value';
import { mcpAppDownloadContentSchema } from './mcp-app-download';
import { fetchResultSchema, hostPageMessageSchema } from './relayed-fetch-wire';
import { MCP_APP_IMAGE_BASE64_LIMIT } from './mcp-app-images';

/** The MIME type of an MCP App's `ui://` resource (SEP-1865, `io.modelcontextprotocol/ui`). */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The version of the MCP Apps protocol this host speaks in `ui/initialize`. */
export const MCP_APP_PROTOCOL_VERSION = '2026-01-26';

export const MCP_APP_HOST_SOURCE = 'splitbrain:mcp-app-host';
export const MCP_APP_STAGE_SOURCE = 'splitbrain:mcp-app-stage';

/** What a `ui://` resource may declare under `_meta.ui.csp`: origins it wants to reach and load from. */
export const mcpAppCspSchema = z.object({
  connectDomains: z.array(z.string().max(500)).max(50).default([]),
  resourceDomains: z.array(z.string().max(500)).max(50).default([]),
});
export type McpAppCsp = z.infer<typeof mcpAppCspSchema>;

/**
 * The tool whose call opened an app, as the host context's `toolInfo.tool` carries it: the official SDK checks it
 * against MCP's `Tool` (a name and an object `inputSchema`) and refuses the whole handshake without one.
 */
export const mcpAppToolInfoSchema = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(10_000).optional(),
  inputSchema: jsonObjectSchema,
});
export type McpAppToolInfo = z.infer<typeof mcpAppToolInfoSchema>;

/** One MCP App as the runtime hands it to the stage: its document, its policy and the call that opened it. */
export const mcpAppLoadSchema = z.object({
  resourceUri: z.string().min(1).max(2000),
  serverName: z.string().max(200),
  html: z.string().max(2_000_000),
  csp: mcpAppCspSchema,
  /** Declared connect origins the user granted; none unless granted. */
  grantedConnect: z.array(z.string().max(500)).max(50),
  tool: mcpAppToolInfoSchema,
  input: jsonObjectSchema,
  /** The tool's CallToolResult as the server sent it (content, structuredContent, isError). */
  result: jsonObjectSchema,
});
export type McpAppLoad = z.infer<typeof mcpAppLoadSchema>;

/** Stage → MCP App host page, by window, once, after the host said `host-ready`. */
export const mcpAppStageMessageSchema = z.object({
  source: z.literal(MCP_APP_STAGE_SOURCE),
  type: z.literal('load'),
  html: z.string().max(2_000_000),
  policy: z.string().max(20_000),
});
export type McpAppStageMessage = z.infer<typeof mcpAppStageMessageSchema>;

/** MCP App host page → stage: ready for the document, and each CSP violation it saw. */
export const mcpAppHostMessageSchema = hostPageMessageSchema(MCP_APP_HOST_SOURCE);
export type McpAppHostMessage = z.infer<typeof mcpAppHostMessageSchema>;

/** The most text one `ui/message` may carry, all its blocks together. */
export const MCP_APP_MESSAGE_LIMIT = 10_000;
/** The most text and base64 one `resources/read` answer may carry to an app, all its contents together. */
export const MCP_APP_RESOURCE_READ_LIMIT = 2_000_000;
/** The stage's answer to an app's relayed fetch: the response as text, or why there is none. */
export const mcpAppFetchResultSchema = fetchResultSchema(MCP_APP_STAGE_SOURCE);
export type McpAppFetchResult = z.infer<typeof mcpAppFetchResultSchema>;

const jsonRpcId = z.union([z.string().max(200), z.number().int()]);
const jsonRpc = z.literal('2.0');
/**
 * The progress an app asks for on a request that may wait for the user (the official SDK sends a token when the app
 * passes `onprogress`): a notification with this token keeps the request alive past the SDK's 60 s.
 */
const progressMetaSchema = z.object({ progressToken: jsonRpcId.optional() }).optional();

/**
 * A content block of an app's message or context. Any type is read, so that one this host does not take (audio, a
 * resource) is refused by name rather than as bad params; text and image blocks keep their fields.
 */
function mcpAppContentBlockSchema(textLimit: number) {
  return z.object({
    type: z.string().max(50),
    text: z.string().max(textLimit).optional(),
    data: z.string().max(MCP_APP_IMAGE_BASE64_LIMIT).optional(),
    mimeType: z.string().max(200).optional(),
  });
}
export type McpAppContentBlock = z.infer<ReturnType<typeof mcpAppContentBlockSchema>>;

const mcpAppMessageBlockSchema = mcpAppContentBlockSchema(MCP_APP_MESSAGE_LIMIT);

/** The display modes of the spec; this host shows `inline` and `fullscreen` (`MCP_APP_HOST_DISPLAY_MODES`). */
export const mcpAppDisplayModeSchema = z.enum(['inline', 'fullscreen', 'pip']);
export type McpAppDisplayMode = z.infer<typeof mcpAppDisplayModeSchema>;
export const MCP_APP_HOST_DISPLAY_MODES: readonly McpAppDisplayMode[] = ['inline', 'fullscreen'];

/** The most text one `ui/update-model-context` may carry: its text blocks and its structured content as JSON. */
export const MCP_APP_CONTEXT_LIMIT = 8_000;

/** The levels of MCP's `notifications/message`, the app's log. */
export const mcpAppLogLevelSchema = z.enum([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

/**
 * What an MCP App may send its host (JSON-RPC 2.0 over postMessage), one variant per method this host serves.
 * Anything else that is JSON-RPC is answered "method not found" (see `jsonRpcEnvelopeSchema`).
 */
export const mcpAppMethodMessageSchema = z.discriminatedUnion('method', [
  z.object({
    jsonrpc: jsonRpc,
    id: jsonRpcId,
    method: z.literal('ui/initialize'),
    params: z
      .object({
        protocolVersion: z.string().max(100).optional(),
        appInfo: z
          .object({ name: z.string().max(200), version: z.string().max(100) })
          .partial()
          .optional(),
        appCapabilities: z
          .object({ availableDisplayModes: z.array(z.string().max(50)).max(10).optional() })
          .passthrough()
          .optional(),
      })
      .passthrough()
      .default({}),
  }),
  z.object({ jsonrpc: jsonRpc, method: z.literal('ui/notifications/initialized') }).passthrough(),
  z.object({
    jsonrpc: jsonRpc,
    method: z.literal('ui/notifications/size-changed'),
    params: z.object({
      width: z.number().nonnegative().max(100_000).optional(),
      height: z.number().nonnegative().max(100_000).optional(),
    }),
  }),
  z.object({
    jsonrpc: jsonRpc,
    id: jsonRpcId,
    method: z.literal('tools/call'),
    params: z.object({
      name: z.string().min(1).max(200),
      arguments: jsonObjectSchema.default({}),
      _meta: progressMetaSchema,
    }),
  }),
  z.object({ jsonrpc: jsonRpc, id: jsonRpcId, method: z.literal('ping') }).passthrough(),
  z.object({
    jsonrpc: jsonRpc,
    id: jsonRpcId,
    method: z.literal('ui/message'),
    params: z.object({
      role: z.literal('user'),
      // The spec's example sends one block, the SDK an array of them: both are taken, text and images.
      content: z.union([mcpAppMessageBlockSchema, z.array(mcpAppMessageBlockSchema).min(1).max(20)]),
      _meta: progressMetaSchema,
    }),
  }),
  z.object({
    jsonrpc: jsonRpc,
    id: jsonRpcId,
    method: z.literal('ui/open-link'),
    params: z.object({ url: z.string().min(1).max(2000), _meta: progressMetaSchema }),
  }),
  z.object({
    jsonrpc: jsonRpc,
    id: jsonRpcId,
    method: z.literal('resources/read'),
    params: z.object({ uri: z.string().min(1).max(2000) }),
  }),
  z.object({
    jsonrpc: jsonRpc,
    id: jsonRpcId,
    method: z.literal('resources/list'),
    params: z.object({ cursor: z.string().max(2000).optional() }).optional(),
  }),
  z.object({
    jsonrpc: jsonRpc,
    id: jsonRpcId,
    method: z.literal('ui/download-file'),
    // More contents than files saved are read, so that too many is refused with the count named.
    params: z.object({ contents: z.array(mcpAppDownloadContentSchema).min(1).max(100), _meta: progressMetaSchema }),
  }),
  z.object({
    jsonrpc: jsonRpc,
    id: jsonRpcId,
    method: z.literal('ui/request-display-mode'),
    params: z.object({ mode: mcpAppDisplayModeSchema }),
  }),
  z.object({
    jsonrpc: jsonRpc,
    id: jsonRpcId,
    method: z.literal('ui/update-model-context'),
    params: z.object({
      content: z.array(mcpAppContentBlockSchema(MCP_APP_CONTEXT_LIMIT)).max(50).optional(),
      structuredContent: jsonObjectSchema.optional(),
    }),
  }),
  z.object({
    jsonrpc: jsonRpc,
    method: z.literal('notifications/message'),
    params: z.object({ level: mcpAppLogLevelSchema, logger: z.string().max(200).optional(), data: jsonValueSchema }),
  }),
  /** The SDK gave up on a request (its time ran out, or the app aborted it): its answer is not sent. */
  z.object({
    jsonrpc: jsonRpc,
    method: z.literal('notifications/cancelled'),
    params: z.object({ requestId: jsonRpcId, reason: z.string().max(2000).optional() }),
  }),
]);
export type McpAppMethodMessage = z.infer<typeof mcpAppMethodMessageSchema>;

/** The app's answer to a request of the host (`ui/resource-teardown`). */
export const mcpAppResponseSchema = z.union([
  z.object({ jsonrpc: jsonRpc, id: jsonRpcId, result: jsonObjectSchema }),
  z.object({
    jsonrpc: jsonRpc,
    id: jsonRpcId,
    error: z.object({ code: z.number().int(), message: z.string().max(4000) }),
  }),
]);
export type McpAppResponse = z.infer<typeof mcpAppResponseSchema>;

/** Everything an app may send its host: a request or notification of a method it serves, or an answer. */
export const mcpAppToHostMessageSchema = z.union([mcpAppMethodMessageSchema, mcpAppResponseSchema]);
export type McpAppToHostMessage = z.infer<typeof mcpAppToHostMessageSchema>;

/** Just enough of any JSON-RPC message to answer it: its id (if a request) and its method. */
export const jsonRpcEnvelopeSchema = z.object({
  jsonrpc: jsonRpc,
  id: jsonRpcId.optional(),
  method: z.string().max(200).optional(),
});

/** The host's JSON-RPC error codes. */
export const JSON_RPC_ERRORS = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
} as const;

/** The error code of a request the host declined or could not serve (the spec leaves -32000 to the host). */
export const MCP_APP_DECLINED = -32000;

/**
 * What the host sends an MCP App: answers to its requests, the notifications of the tool call that opened it, the
 * changes of its context, progress on a tool call the user is still deciding, and the request to tear it down.
 */
export type McpAppFromHostMessage =
  | { jsonrpc: '2.0'; id: string | number; result: JsonObject }
  | { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } }
  | { jsonrpc: '2.0'; method: 'ui/notifications/tool-input'; params: { arguments: JsonObject } }
  | { jsonrpc: '2.0'; method: 'ui/notifications/tool-result'; params: JsonObject }
  | { jsonrpc: '2.0'; method: 'ui/notifications/host-context-changed'; params: JsonObject }
  | { jsonrpc: '2.0'; method: 'notifications/progress'; params: { progressToken: string | number; progress: number } }
  | { jsonrpc: '2.0'; id: string; method: 'ui/resource-teardown'; params: { reason?: string } };
