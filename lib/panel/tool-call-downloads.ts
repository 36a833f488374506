import { z } from 'zod';
import { FENCE_CLOSE, FENCE_OPEN } from '../page-tools/page-fence';
import type { JsonValue } from '../protocol/json-value';

const listedDownloadSchema = z.object({
  downloadId: z.number().int().nonnegative(),
  name: z.string(),
  size: z.number(),
  type: z.string(),
  typeFrom: z.string(),
  site: z.string(),
  state: z.string(),
});

export type ListedDownload = z.infer<typeof listedDownloadSchema>;

/** What a page tool's result says of downloads: those it started, or that the permission to see them is missing. */
export type ToolCallDownloads = { kind: 'listed'; downloads: ListedDownload[] } | { kind: 'not-permitted' } | undefined;

const outputSchema = z.object({ downloads: z.union([z.array(z.unknown()), z.null()]) });

/** The downloads of a page tool's result, each name out of its fence (the card shows it as text, never as markup). */
export function toolCallDownloads(output: JsonValue | undefined): ToolCallDownloads {
  const parsed = outputSchema.safeParse(output);
  if (!parsed.success) return undefined;
  if (parsed.data.downloads === null) return { kind: 'not-permitted' };
  const downloads = parsed.data.downloads.flatMap((entry) => {
    const download = listedDownloadSchema.safeParse(entry);
    return download.success ? [{ ...download.data, name: unfenced(download.data.name) }] : [];
  });
  return downloads.length > 0 ? { kind: 'listed', downloads } : undefined;
}

function unfenced(text: string): string {
  const fenced = new RegExp(`^<<${FENCE_OPEN} [0-9a-f]+>>\\n([\\s\\S]*)\\n<<${FENCE_CLOSE} [0-9a-f]+>>$`).exec(text);
  return fenced?.[1] ?? text;
}
