import { appImagesRefusal, type McpAppImage, type McpAppImageLimits } from '../protocol/mcp-app-images';
import type { McpAppContentBlock } from '../protocol/mcp-app-wire';

/** An app's content blocks as the host takes them: the text blocks joined, and the images; or why not. */
export type McpAppContent = { ok: true; text: string; images: McpAppImage[] } | { ok: false; reason: string };

/**
 * Reads the text and image blocks of an app's message or context, within `limits` of images; any other block
 * (audio, a resource, a link) is refused by its type, `taken` saying what is. The images' bytes are checked by the
 * runtime, which decodes them.
 */
export function mcpAppContent(
  blocks: readonly McpAppContentBlock[],
  taken: string,
  limits: McpAppImageLimits,
): McpAppContent {
  const texts: string[] = [];
  const images: McpAppImage[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.type === 'text' && block.text !== undefined) texts.push(block.text);
    else if (block.type === 'image' && block.data && block.mimeType)
      images.push({ data: block.data, mimeType: block.mimeType });
    else if (block.type === 'text') return { ok: false, reason: `Block ${index + 1} is a text block without text.` };
    else if (block.type === 'image')
      return { ok: false, reason: `Block ${index + 1} is an image block without data and mimeType.` };
    else return { ok: false, reason: `${taken}, not ${block.type}.` };
  }
  const refusal = appImagesRefusal(images, limits);
  if (refusal) return { ok: false, reason: refusal };
  return { ok: true, text: texts.join('\n\n'), images };
}
