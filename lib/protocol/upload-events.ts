import { z } from 'zod';
import { blobRefSchema } from './blob-ref';

const id = z.string().min(1).max(200);

export const UPLOAD_STATES = [
  'selected',
  'hashing',
  'ready',
  'attached',
  'consumed',
  'failed',
  'rejected',
  'cancelled',
] as const;
export type UploadStateName = (typeof UPLOAD_STATES)[number];

export const UPLOAD_REJECTIONS = ['too-large', 'unsupported-type', 'too-many-pixels', 'unreadable'] as const;
export type UploadRejection = (typeof UPLOAD_REJECTIONS)[number];

/** A file the user attached: one event per state it reaches, keyed by `uploadId`; `partId` names its part in the message. */
export const uploadStateEventData = z.object({
  state: z.enum(UPLOAD_STATES),
  name: z.string().max(500),
  size: z.number().int().nonnegative(),
  /** What the browser said the file was; shown beside the sniffed type when they differ, never trusted. */
  declaredType: z.string().max(200).optional(),
  /** Present from `ready` on: the stored bytes. */
  blob: blobRefSchema.optional(),
  /** The turn the file was sent with (`attached`, `consumed`). */
  turnId: id.optional(),
  rejection: z.enum(UPLOAD_REJECTIONS).optional(),
  reason: z.string().max(2000).optional(),
});

export const uploadEventIds = { uploadId: id, partId: id };

/** A file sent with a user message, as `turn/started` records it. */
export const messageAttachmentSchema = z.object({ uploadId: id, partId: id, blob: blobRefSchema });
export type MessageAttachment = z.infer<typeof messageAttachmentSchema>;
