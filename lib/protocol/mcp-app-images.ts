import { z } from 'zod';

const MB = 1024 * 1024;

/** How many images one request of an app may give, and how many bytes they may have in all. */
export interface McpAppImageLimits {
  images: number;
  bytes: number;
}

/**
 * The images an MCP App may give: with one `ui/message`, as many and as large as a user attaches in practice; with
 * one `ui/update-model-context`, fewer and smaller, as a context goes with a message and then stays in the history
 * every later request sends.
 */
export const MCP_APP_IMAGE_LIMITS = {
  message: { images: 5, bytes: 20 * MB },
  context: { images: 3, bytes: 5 * MB },
} as const satisfies Record<string, McpAppImageLimits>;

/** The base64 length of `bytes` bytes. */
function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** The bytes a base64 text decodes to, counted without decoding it. */
export function base64ByteLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** The most base64 one image of an app may have: all of a message's bytes. */
export const MCP_APP_IMAGE_BASE64_LIMIT = base64Length(MCP_APP_IMAGE_LIMITS.message.bytes);

/**
 * An image an app gave (MCP's ImageContent): its bytes as base64 and the type it declares. The runtime decodes
 * the bytes and sniffs their type; the declared one is only checked against it.
 */
export const mcpAppImageSchema = z.object({
  data: z.string().min(1).max(MCP_APP_IMAGE_BASE64_LIMIT),
  mimeType: z.string().min(1).max(200),
});
export type McpAppImage = z.infer<typeof mcpAppImageSchema>;

function sizeText(bytes: number): string {
  return bytes >= MB ? `${Number((bytes / MB).toFixed(1))} MB` : `${bytes} bytes`;
}

/** Why these images are more than `limits` allow (too many, or too many bytes in all), or undefined. */
export function appImagesRefusal(images: readonly McpAppImage[], limits: McpAppImageLimits): string | undefined {
  if (images.length > limits.images) return `It gave ${images.length} images; at most ${limits.images} are taken.`;
  const bytes = images.reduce((sum, image) => sum + base64ByteLength(image.data), 0);
  if (bytes > limits.bytes) return `Its images have more than ${sizeText(limits.bytes)} in all.`;
  return undefined;
}
