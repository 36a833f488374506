import { decodeBase64 } from '../protocol/decode-base64';
import { z } from 'zod';
import type { BlobRef } from '../protocol/blob-ref';
import type { JsonValue } from '../protocol/json-value';

const contentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
  z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string() }),
  z.object({ type: z.literal('resource_link'), uri: z.string(), name: z.string().optional() }).passthrough(),
  z
    .object({
      type: z.literal('resource'),
      resource: z.object({ uri: z.string(), text: z.string().optional(), blob: z.string().optional() }).passthrough(),
    })
    .passthrough(),
]);

/** A `tools/call` result, checked at the trust boundary: a server is outside the extension. */
export const mcpCallResultSchema = z.object({
  content: z.array(z.unknown()).default([]),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});

/** Stores one image's bytes as a BlobRef (the blob store, as screenshots are), or says why it could not. */
export type StoreMcpImage = (
  bytes: Uint8Array,
  name: string,
) => Promise<{ ok: true; ref: BlobRef } | { ok: false; reason: string }>;

const TEXT_LIMIT = 100_000;

/**
 * The tool output the model and the log get: text joined, images as BlobRefs under `images` (the shape
 * screenshots have, so providers receive them as images), structured content as JSON. `isError` from the
 * server makes the output a tool error.
 */
export async function mcpToolOutput(
  raw: unknown,
  storeImage: StoreMcpImage,
): Promise<{ ok: true; output: { [key: string]: JsonValue } } | { ok: false; error: string }> {
  const parsed = mcpCallResultSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: 'The server sent a tool result that is not an MCP CallToolResult.' };
  const texts: string[] = [];
  const images: BlobRef[] = [];
  const notes: string[] = [];
  for (const [index, item] of parsed.data.content.entries()) {
    const content = contentSchema.safeParse(item);
    if (!content.success) {
      notes.push(`Content ${index} is of an unknown kind and was left out.`);
      continue;
    }
    const part = content.data;
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'resource_link') texts.push(`Resource: ${part.uri}`);
    else if (part.type === 'resource') texts.push(part.resource.text ?? `Resource: ${part.resource.uri}`);
    else if (part.type === 'audio') notes.push(`Content ${index} is audio, which is not passed on.`);
    else {
      const bytes = decodeBase64(part.data);
      const stored = bytes
        ? await storeImage(bytes, `mcp-image-${index}`)
        : { ok: false as const, reason: 'not base64' };
      if (stored.ok) images.push(stored.ref);
      else notes.push(`Image ${index} was not kept: ${stored.reason}.`);
    }
  }
  const text = texts.join('\n').slice(0, TEXT_LIMIT);
  if (parsed.data.isError) return { ok: false, error: text || 'The server reported an error without a message.' };
  const output: { [key: string]: JsonValue } = { text };
  if (images.length > 0) output.images = images;
  if (parsed.data.structuredContent) {
    output.structuredContent = JSON.parse(JSON.stringify(parsed.data.structuredContent)) as JsonValue;
  }
  if (notes.length > 0) output.notes = notes;
  return { ok: true, output };
}
