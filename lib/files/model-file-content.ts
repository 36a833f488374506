import { convertUint8ArrayToBase64 } from '@ai-sdk/provider-utils';
import type { FilePart, ModelMessage, TextPart, ToolResultPart } from 'ai';
import { blobRefSchema, type BlobRef } from '../protocol/blob-ref';
import type { JsonValue } from '../protocol/json-value';
import type { EndpointFileLimits, FileEndpointKind } from './file-limits';
import { isImageType, isTextType, PDF_TYPE } from './file-kinds';

/** Scales an image to fit `maxEdge` and re-encodes it (which drops EXIF and GPS metadata) under `maxBytes`. */
export type ReencodeImage = (
  bytes: Uint8Array,
  mime: string,
  limits: { maxEdge: number; maxBytes: number },
) => Promise<{ bytes: Uint8Array; mime: string }>;

/** A BlobRef with the bytes to send, or none when they are gone from the store. */
export interface ResolvedBlob {
  ref: BlobRef;
  bytes?: Uint8Array;
  mime: string;
}

export interface FileContentOptions {
  kind: FileEndpointKind;
  limits: EndpointFileLimits;
  resolved: ReadonlyMap<string, ResolvedBlob>;
}

/** Reads the bytes of every ref once, re-encoding images for the endpoint; a missing blob stays without bytes. */
export async function resolveBlobs(
  refs: readonly BlobRef[],
  dependencies: { read(blobId: string): Promise<Uint8Array | undefined>; reencodeImage?: ReencodeImage },
  limits: EndpointFileLimits,
): Promise<Map<string, ResolvedBlob>> {
  const resolved = new Map<string, ResolvedBlob>();
  for (const ref of refs) {
    if (resolved.has(ref.blobId)) continue;
    const bytes = await dependencies.read(ref.blobId).catch(() => undefined);
    if (!bytes || !isImageType(ref.mime) || !dependencies.reencodeImage) {
      resolved.set(ref.blobId, { ref, mime: ref.mime, ...(bytes ? { bytes } : {}) });
      continue;
    }
    // An image that cannot be re-encoded is not sent as it is: its metadata would go with it.
    const encoded = await dependencies
      .reencodeImage(bytes, ref.mime, { maxEdge: limits.maxImageEdge, maxBytes: limits.maxImageBytes })
      .catch(() => undefined);
    resolved.set(ref.blobId, { ref, mime: encoded?.mime ?? ref.mime, ...(encoded ? { bytes: encoded.bytes } : {}) });
  }
  return resolved;
}

/** Why this endpoint cannot take images, or undefined when it can. */
export function endpointImageRefusal(kind: FileEndpointKind, limits: EndpointFileLimits): string | undefined {
  return limits.images ? undefined : `This endpoint (${kind}) does not take images.`;
}

/** Why this endpoint cannot take these files, or undefined when it can: said before sending, never dropped. */
export function attachmentRefusal(refs: readonly BlobRef[], kind: FileEndpointKind, limits: EndpointFileLimits) {
  const image = refs.find((ref) => isImageType(ref.mime));
  const imageRefusal = image ? endpointImageRefusal(kind, limits) : undefined;
  if (image && imageRefusal) return `${imageRefusal} Remove “${image.name}” or switch to an endpoint that does.`;
  const pdf = refs.find((ref) => ref.mime === PDF_TYPE);
  if (pdf && !limits.pdf)
    return `This endpoint (${kind}) does not take PDF files: remove “${pdf.name}” or switch to an OpenAI, Anthropic, Gemini or AI SDK chat endpoint.`;
  return undefined;
}

function fileText(ref: BlobRef, bytes: Uint8Array): string {
  return `<file name="${ref.name.replace(/"/g, "'")}" type="${ref.mime}">\n${new TextDecoder().decode(bytes)}\n</file>`;
}

type UserPart = TextPart | FilePart;

function unavailable(ref: BlobRef, why: string): UserPart {
  return { type: 'text', text: `[Attached file “${ref.name}” ${why}; it was not sent.]` };
}

/** One attached file as parts of a user message for this endpoint. */
function filePart(ref: BlobRef, options: FileContentOptions): UserPart {
  const blob = options.resolved.get(ref.blobId);
  if (!blob?.bytes) return unavailable(ref, 'is no longer available');
  if (isTextType(ref.mime) && options.kind !== 'ai-sdk-chat') return { type: 'text', text: fileText(ref, blob.bytes) };
  if (ref.mime === PDF_TYPE && !options.limits.pdf)
    return unavailable(ref, 'is a PDF, which this endpoint cannot take');
  return { type: 'file', data: blob.bytes, mediaType: blob.mime, filename: ref.name };
}

export function userMessageContent(text: string, refs: readonly BlobRef[], options: FileContentOptions): UserPart[] {
  const parts = refs.map((ref) => filePart(ref, options));
  return text ? [{ type: 'text', text }, ...parts] : parts;
}

/** The images a tool result carries (`images: BlobRef[]`, as screenshots do), validated. */
const IMAGES_FOLLOW_UP_PREFIX = 'Images returned by the ';

/** The toolCallId whose images a user message carries (endpoints that take no images in tool results), if it is one. */
export function imagesFollowUpCallId(message: ModelMessage): string | undefined {
  if (message.role !== 'user' || typeof message.content === 'string') return undefined;
  const first = message.content[0];
  if (first?.type !== 'text' || !first.text.startsWith(IMAGES_FOLLOW_UP_PREFIX)) return undefined;
  return /call (\S+):$/.exec(first.text)?.[1];
}

export function toolOutputImages(output: JsonValue): BlobRef[] {
  if (!output || typeof output !== 'object' || Array.isArray(output) || !Array.isArray(output.images)) return [];
  return output.images.flatMap((image) => {
    const parsed = blobRefSchema.safeParse(image);
    return parsed.success && isImageType(parsed.data.mime) ? [parsed.data] : [];
  });
}

/**
 * A tool result for the model. Its images go inside the result where the provider takes them there, otherwise
 * into a user message right after the tool results; the result's text says which.
 */
export function toolResultContent(
  call: { toolCallId: string; toolName: string },
  output: JsonValue,
  options: FileContentOptions | undefined,
): { part: ToolResultPart; followUp?: ModelMessage } {
  const images = toolOutputImages(output);
  const base = { type: 'tool-result' as const, toolCallId: call.toolCallId, toolName: call.toolName };
  if (!options || images.length === 0) return { part: { ...base, output: { type: 'json', value: output } } };
  const available = images.flatMap((ref) => {
    const blob = options.resolved.get(ref.blobId);
    return blob?.bytes ? [{ ref, bytes: blob.bytes, mime: blob.mime }] : [];
  });
  const missing = images.length - available.length;
  const gone = missing > 0 ? ` ${missing} of its images are no longer available.` : '';
  if (options.limits.toolResultImages === 'in-result') {
    const note = `${available.length} image(s) of this result follow here.${gone}`;
    return {
      part: {
        ...base,
        output: {
          type: 'content',
          value: [
            { type: 'text', text: `${JSON.stringify(output)}\n${note}` },
            ...available.map((image) => ({
              type: 'image-data' as const,
              data: convertUint8ArrayToBase64(image.bytes),
              mediaType: image.mime,
            })),
          ],
        },
      },
    };
  }
  const note = `This endpoint takes no images in tool results: the ${available.length} image(s) of this result are in the next user message.${gone}`;
  return {
    part: { ...base, output: { type: 'text', value: `${JSON.stringify(output)}\n${note}` } },
    ...(available.length > 0
      ? {
          followUp: {
            role: 'user',
            content: [
              { type: 'text', text: `${IMAGES_FOLLOW_UP_PREFIX}${call.toolName} call ${call.toolCallId}:` },
              ...available.map((image) => ({
                type: 'file' as const,
                data: image.bytes,
                mediaType: image.mime,
                filename: image.ref.name,
              })),
            ],
          },
        }
      : {}),
  };
}

/** The tool message for a step's results, and the user message with their images when they go after it. */
export function toolResultMessages(parts: { part: ToolResultPart; followUp?: ModelMessage }[]): ModelMessage[] {
  const followUps = parts.flatMap((entry) => (entry.followUp ? [entry.followUp] : []));
  return [{ role: 'tool', content: parts.map((entry) => entry.part) }, ...followUps];
}
