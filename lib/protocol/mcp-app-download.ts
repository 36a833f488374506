import { z } from 'zod';
import { MCP_RESOURCE_MAX_BYTES, MCP_RESOURCE_MAX_PARTS } from './mcp-resource';

/**
 * The approval-only call of an app's `ui/download-file`: the user's consent to save the files it names. The panel
 * reads the name too, as its Allow click asks the browser for the downloads permission.
 */
export const APP_DOWNLOAD_TOOL = 'app_download_file';

/** The most bytes one `ui/download-file` saves, all its files together: as much as a picked or attached file. */
export const MCP_APP_DOWNLOAD_LIMIT = MCP_RESOURCE_MAX_BYTES;
/** The most files one `ui/download-file` saves: as many as a resource attached to a message may have parts. */
export const MCP_APP_DOWNLOAD_MAX_FILES = MCP_RESOURCE_MAX_PARTS;
/**
 * The longest text or base64 one content may be on the wire: twice the base64 of the limit, so that a content over
 * the limit is still read and refused with the limit named, rather than as unreadable params.
 */
const CONTENT_CHARACTERS = Math.ceil(MCP_APP_DOWNLOAD_LIMIT / 3) * 4 * 2;

const uri = z.string().min(1).max(2000);
const mimeType = z.string().max(200).optional();

/** MCP's `EmbeddedResource`: the file is given inline, as text or as base64 bytes. */
export const mcpAppEmbeddedResourceSchema = z.object({
  type: z.literal('resource'),
  resource: z.union([
    z.object({ uri, mimeType, text: z.string().max(CONTENT_CHARACTERS) }),
    z.object({ uri, mimeType, blob: z.base64().max(CONTENT_CHARACTERS) }),
  ]),
});
export type McpAppEmbeddedResource = z.infer<typeof mcpAppEmbeddedResourceSchema>;

/** MCP's `ResourceLink`: the host reads the file (here: from the app's own server only). */
export const mcpAppResourceLinkSchema = z.object({
  type: z.literal('resource_link'),
  uri,
  name: z.string().max(500),
  title: z.string().max(500).optional(),
  mimeType,
});
export type McpAppResourceLink = z.infer<typeof mcpAppResourceLinkSchema>;

/** One content of an app's `ui/download-file`. */
export const mcpAppDownloadContentSchema = z.discriminatedUnion('type', [
  mcpAppEmbeddedResourceSchema,
  mcpAppResourceLinkSchema,
]);
export type McpAppDownloadContent = z.infer<typeof mcpAppDownloadContentSchema>;

/** A file the app asks to save, as the runtime asks the user about it: no bytes, which stay in the stage. */
export const mcpAppDownloadFileSchema = z.object({
  name: z.string().min(1).max(200),
  mimeType: z.string().min(1).max(200),
  size: z.number().int().nonnegative().max(MCP_APP_DOWNLOAD_LIMIT),
});
export type McpAppDownloadFile = z.infer<typeof mcpAppDownloadFileSchema>;

/** The files of one download, within the count and the size in all. */
export const mcpAppDownloadFilesSchema = z
  .array(mcpAppDownloadFileSchema)
  .min(1)
  .max(MCP_APP_DOWNLOAD_MAX_FILES)
  .refine((files) => files.reduce((total, file) => total + file.size, 0) <= MCP_APP_DOWNLOAD_LIMIT, {
    message: `The files are larger than ${MCP_APP_DOWNLOAD_LIMIT} bytes in all.`,
  });
