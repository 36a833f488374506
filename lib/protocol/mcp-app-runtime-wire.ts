import { z } from 'zod';
import { jsonObjectSchema, type JsonObject } from './json-value';
import { mcpAppDownloadFilesSchema } from './mcp-app-download';
import { appImagesRefusal, MCP_APP_IMAGE_LIMITS, mcpAppImageSchema } from './mcp-app-images';
import { MCP_APP_CONTEXT_LIMIT, MCP_APP_MESSAGE_LIMIT, MCP_APP_RESOURCE_READ_LIMIT } from './mcp-app-wire';

/** An app's `tools/call`, as the stage reports it to the runtime and the runtime answers it. */
export const mcpAppToolCallSchema = z.object({
  name: z.string().min(1).max(200),
  arguments: jsonObjectSchema,
});
export const mcpAppToolAnswerSchema = z.union([
  z.object({ result: jsonObjectSchema }),
  z.object({ error: z.string().max(4000) }),
]);
export type McpAppToolAnswer = z.infer<typeof mcpAppToolAnswerSchema>;

/**
 * An app's request the stage hands the runtime, beyond `tools/call`: a message for the conversation, a link to
 * open, files to save, and a resource (or a page of the resource list) of its own server to read. The runtime
 * answers each with a `McpAppToolAnswer`.
 */
export const mcpAppRequestSchema = z.discriminatedUnion('method', [
  /** The user's message an app asks to add: its text blocks joined, and its images. */
  z
    .object({
      method: z.literal('ui/message'),
      text: z.string().max(MCP_APP_MESSAGE_LIMIT),
      images: z.array(mcpAppImageSchema).max(MCP_APP_IMAGE_LIMITS.message.images).optional(),
    })
    .refine((request) => request.text.length > 0 || (request.images?.length ?? 0) > 0, {
      message: 'The message has neither text nor an image.',
    })
    .refine((request) => !appImagesRefusal(request.images ?? [], MCP_APP_IMAGE_LIMITS.message), {
      message: 'The message has more images than are taken.',
    }),
  z.object({ method: z.literal('ui/open-link'), url: z.url().max(2000) }),
  z.object({ method: z.literal('resources/read'), uri: z.string().min(1).max(2000) }),
  z.object({ method: z.literal('resources/list'), cursor: z.string().max(2000).optional() }),
  /** The files as the user is asked about them; their bytes stay in the stage, which saves them once allowed. */
  z.object({ method: z.literal('ui/download-file'), files: mcpAppDownloadFilesSchema }),
  /** What the model should know from the app (its text blocks, joined, and its images), replacing what it said before. */
  z
    .object({
      method: z.literal('ui/update-model-context'),
      text: z.string().max(MCP_APP_CONTEXT_LIMIT),
      structuredContent: jsonObjectSchema.optional(),
      images: z.array(mcpAppImageSchema).max(MCP_APP_IMAGE_LIMITS.context.images).optional(),
    })
    .refine((request) => modelContextSize(request) <= MCP_APP_CONTEXT_LIMIT, {
      message: `The context is larger than ${MCP_APP_CONTEXT_LIMIT} characters.`,
    })
    .refine((request) => !appImagesRefusal(request.images ?? [], MCP_APP_IMAGE_LIMITS.context), {
      message: 'The context has more images than are taken.',
    }),
]);
export type McpAppRequest = z.infer<typeof mcpAppRequestSchema>;

/** The size an app's model context is counted at: its text and its structured content as JSON. */
export function modelContextSize(context: { text: string; structuredContent?: JsonObject }): number {
  return context.text.length + (context.structuredContent ? JSON.stringify(context.structuredContent).length : 0);
}

/** A server's `resources/read` result as an app gets it: text or base64 contents, within the size limit. */
export const mcpAppReadResultSchema = z
  .object({
    contents: z
      .array(
        z.union([
          z.object({ uri: z.string().max(2000), mimeType: z.string().max(200).optional(), text: z.string() }),
          z.object({ uri: z.string().max(2000), mimeType: z.string().max(200).optional(), blob: z.string() }),
        ]),
      )
      .max(100),
  })
  .refine(
    (result) =>
      result.contents.reduce((size, content) => size + ('text' in content ? content.text : content.blob).length, 0) <=
      MCP_APP_RESOURCE_READ_LIMIT,
    { message: `The resource is larger than ${MCP_APP_RESOURCE_READ_LIMIT} characters.` },
  );
