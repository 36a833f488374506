import { z } from 'zod';
import { blobRefSchema } from './blob-ref';
import { jsonObjectSchema } from './json-value';
import { MCP_APP_IMAGE_LIMITS } from './mcp-app-images';
import { MCP_APP_CONTEXT_LIMIT } from './mcp-app-wire';

/** The most app contexts one message carries to the model (the newest, one per app). */
export const MAX_APP_CONTEXTS_PER_TURN = 5;

/**
 * `mcp-app/context` (version 8): what an MCP App open in the stage said the model should know
 * (`ui/update-model-context`), replacing what that app (`targetId`, one opening of it) said before. The runtime
 * records it; the panel shows it; the model reads it with the next message whose `turn/started` names it in
 * `appContexts`, inside a fence of `marker` (drawn when it was recorded, so every request sends the same bytes).
 * `images` (version 9): the images it gave, in the blob store, which go to the model as images after the fence.
 */
export function mcpAppContextEventSchemas<TEnvelope extends z.ZodRawShape>(envelope: TEnvelope, id: z.ZodString) {
  return [
    z.object({
      ...envelope,
      contextId: id,
      type: z.literal('mcp-app/context'),
      data: z.object({
        targetId: id,
        app: z.string().max(200),
        serverName: z.string().max(200),
        text: z.string().max(MCP_APP_CONTEXT_LIMIT),
        structuredContent: jsonObjectSchema.optional(),
        images: z.array(blobRefSchema).min(1).max(MCP_APP_IMAGE_LIMITS.context.images).optional(),
        marker: z.string().regex(/^[0-9a-f]{32,128}$/),
      }),
    }),
  ] as const;
}
