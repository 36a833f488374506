import { z } from 'zod';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * An immutable reference to bytes in the blob store. `blobId` is the sha256 of the bytes, so equal content is
 * stored once; `mime` is sniffed from the bytes, never taken from a file name or the browser's report.
 */
export const blobRefSchema = z.object({
  blobId: sha256Hex,
  sha256: sha256Hex,
  mime: z.string().min(1).max(200),
  size: z.number().int().nonnegative(),
  name: z.string().max(500),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  pages: z.number().int().positive().optional(),
});

export type BlobRef = z.infer<typeof blobRefSchema>;
