import type { BlobRef } from '../protocol/blob-ref';
import type { JsonValue } from '../protocol/json-value';
import type { ToolOutput } from '../protocol/tool-output';
import { bytesToBase64 } from '../files/bytes-to-base64';
import { formatFileSize } from '../files/format-file-size';
import { actOnPage } from './act-on-page';
import { failedWithObservation } from './failed-with-observation';
import type { PageFence } from './page-fence';
import type { PageLinkDependencies } from './page-link-dependencies';
import type { OpenPage, PageToolInput } from './page-tool-inputs';
import type { PageCallContext, PageToolContext } from './page-tool-context';

/** An upload travels to the page as base64 in one runtime message; this keeps it well under Chrome's 64 MB. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** Puts a file the user attached in this conversation into a file input or a drop zone of the observed page. */
export async function uploadFile(
  context: PageToolContext,
  page: OpenPage,
  call: PageCallContext,
  input: PageToolInput<'uploadFile'>,
  fence: PageFence,
): Promise<ToolOutput> {
  const ref = await attachedFile(context.dependencies, call, input.file);
  const refused = (code: string, reason: string) => failedWithObservation(context, code, reason, page, call, fence);
  if (!ref)
    return refused(
      'FILE_NOT_ATTACHED',
      `No file "${input.file.slice(0, 200)}" is attached in this conversation: only a file the user attached here can be uploaded.`,
    );
  if (ref.size > UPLOAD_MAX_BYTES)
    return refused(
      'FILE_TOO_LARGE',
      `"${ref.name}" is ${formatFileSize(ref.size)}; at most ${formatFileSize(UPLOAD_MAX_BYTES)} can be uploaded into a page.`,
    );
  const bytes = await context.dependencies.readBlob?.(ref.blobId).catch(() => undefined);
  if (!bytes) return refused('FILE_UNAVAILABLE', `The bytes of "${ref.name}" are no longer stored.`);
  const { file: _, ...target } = input;
  const output = await actOnPage(context, page, call, { ...target, action: 'focus' }, fence, {
    name: ref.name,
    type: ref.mime,
    base64: bytesToBase64(bytes),
  });
  return { ...output, file: { name: ref.name, size: ref.size, type: ref.mime } };
}

/** The attached file a call names, of this conversation only. */
export async function attachedFile(
  dependencies: PageLinkDependencies,
  call: PageCallContext,
  file: JsonValue | undefined,
): Promise<BlobRef | undefined> {
  if (typeof file !== 'string' || !dependencies.attachedFile) return undefined;
  return dependencies.attachedFile(call.sessionId, file).catch(() => undefined);
}
