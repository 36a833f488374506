import {
  JSON_RPC_ERRORS,
  MCP_APP_CONTEXT_LIMIT,
  MCP_APP_DECLINED,
  MCP_APP_MESSAGE_LIMIT,
  type McpAppMethodMessage,
} from '../protocol/mcp-app-wire';
import { modelContextSize, type McpAppRequest } from '../protocol/mcp-app-runtime-wire';
import { MCP_APP_IMAGE_LIMITS } from '../protocol/mcp-app-images';
import { mcpAppContent } from './mcp-app-content';

type ParamsOf<Method extends McpAppMethodMessage['method']> = Extract<
  McpAppMethodMessage,
  { method: Method }
>['params'];

/** What the runtime is asked for an app's message or context, or the JSON-RPC error the app gets instead. */
export type CheckedAppRequest = { ok: true; request: McpAppRequest } | { ok: false; code: number; reason: string };

/** The user's message (`ui/message`): text and image blocks, within the limits, with text or an image at least. */
export function checkedAppMessage(content: ParamsOf<'ui/message'>['content']): CheckedAppRequest {
  const blocks = Array.isArray(content) ? content : [content];
  const read = mcpAppContent(blocks, 'Only text and image blocks are taken', MCP_APP_IMAGE_LIMITS.message);
  if (!read.ok) return { ok: false, code: JSON_RPC_ERRORS.invalidParams, reason: read.reason };
  if (read.text.length > MCP_APP_MESSAGE_LIMIT)
    return {
      ok: false,
      code: JSON_RPC_ERRORS.invalidParams,
      reason: `The message is longer than ${MCP_APP_MESSAGE_LIMIT} characters.`,
    };
  if (!read.text && read.images.length === 0)
    return { ok: false, code: JSON_RPC_ERRORS.invalidParams, reason: 'The message has neither text nor an image.' };
  const images = read.images.length ? { images: read.images } : {};
  return { ok: true, request: { method: 'ui/message', text: read.text, ...images } };
}

/** What the app tells the model (`ui/update-model-context`): text and image blocks and structured content. */
export function checkedModelContext(params: ParamsOf<'ui/update-model-context'>): CheckedAppRequest {
  const read = mcpAppContent(
    params.content ?? [],
    'Only text and image blocks and structured content are taken',
    MCP_APP_IMAGE_LIMITS.context,
  );
  if (!read.ok) return { ok: false, code: MCP_APP_DECLINED, reason: read.reason };
  const request = {
    method: 'ui/update-model-context' as const,
    text: read.text,
    ...(params.structuredContent ? { structuredContent: params.structuredContent } : {}),
    ...(read.images.length ? { images: read.images } : {}),
  };
  if (modelContextSize(request) > MCP_APP_CONTEXT_LIMIT)
    return {
      ok: false,
      code: MCP_APP_DECLINED,
      reason: `The context is larger than ${MCP_APP_CONTEXT_LIMIT} characters.`,
    };
  return { ok: true, request };
}
