import { z } from 'zod';

/** The most of one resource that is attached, all its parts together: as much as a picked file may be (`INTAKE_LIMITS`). */
export const MCP_RESOURCE_MAX_BYTES = 20 * 1024 * 1024;
/** The most parts of one resource that are attached, as files: as many as a message may carry (`INTAKE_LIMITS`). */
export const MCP_RESOURCE_MAX_PARTS = 10;

/** One resource as a server lists it (`resources/list`). */
export interface McpListedResource {
  uri: string;
  name: string;
  mimeType?: string;
}

const resourceDefinitionSchema = z.object({
  serverId: z.string(),
  serverName: z.string(),
  uri: z.string(),
  name: z.string(),
  mimeType: z.string().optional(),
});
export type McpResourceDefinition = z.infer<typeof resourceDefinitionSchema>;

/** The runtime's answer to `mcp/resources`: the enabled servers' resources, and why a server has none to give. */
export const mcpResourcesResultSchema = z.object({
  resources: z.array(resourceDefinitionSchema),
  notes: z.array(z.string()),
});
export type McpResourcesResult = z.infer<typeof mcpResourcesResultSchema>;

const resourcePartSchema = z.object({
  name: z.string(),
  mimeType: z.string(),
  content: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('text'), text: z.string() }),
    z.object({ kind: z.literal('blob'), base64: z.string() }),
  ]),
});
/** One part of a resource, text or base64 bytes, as the file it is attached as. */
export type McpResourcePart = z.infer<typeof resourcePartSchema>;

/** The runtime's answer to `mcp/resource`: every part of one resource, each to attach as a file. */
export const mcpResourceResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), parts: z.array(resourcePartSchema).min(1).max(MCP_RESOURCE_MAX_PARTS) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type McpResourceResult = z.infer<typeof mcpResourceResultSchema>;

const readResourceResultSchema = z.object({
  contents: z.array(
    z.union([
      z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
      z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
    ]),
  ),
});

/** A file name for a resource: its listed name, with an extension its type implies when it has none. */
function resourceFileName(name: string, mimeType: string): string {
  const base = name.replace(/[\\/:*?"<>|]+/g, '-').trim() || 'resource';
  if (/\.[a-z0-9]{1,8}$/i.test(base)) return base;
  const extension: Record<string, string> = {
    'text/plain': 'txt',
    'text/markdown': 'md',
    'text/csv': 'csv',
    'application/json': 'json',
    'text/html': 'html',
    'image/png': 'png',
    'image/jpeg': 'jpg',
    'application/pdf': 'pdf',
  };
  const known = extension[mimeType.split(';')[0].trim().toLowerCase()];
  return known ? `${base}.${known}` : base;
}

/**
 * A `resources/read` result as attachments: each of its contents, text or blob, a file of its own (a resource of
 * several parts is attached whole), within the size and the count of files a message may have. A part named by
 * its own URI is named after it; the others after the listed resource.
 */
export function mcpResourceAttachment(result: unknown, listed: McpListedResource): McpResourceResult {
  const parsed = readResourceResultSchema.safeParse(result);
  if (!parsed.success) return { ok: false, error: 'The server sent a resource that is not a resources/read result.' };
  const { contents } = parsed.data;
  if (contents.length === 0) return { ok: false, error: `${listed.uri} has no content.` };
  if (contents.length > MCP_RESOURCE_MAX_PARTS)
    return {
      ok: false,
      error: `${listed.uri} has ${contents.length} parts; a message takes at most ${MCP_RESOURCE_MAX_PARTS} files.`,
    };
  const size = contents.reduce(
    (total, part) => total + ('text' in part ? part.text.length : Math.floor((part.blob.length * 3) / 4)),
    0,
  );
  if (size > MCP_RESOURCE_MAX_BYTES)
    return { ok: false, error: `${listed.uri} is larger than ${MCP_RESOURCE_MAX_BYTES / 1024 / 1024} MB.` };
  return { ok: true, parts: contents.map((part, index) => resourcePart(part, index, contents.length, listed)) };
}

function resourcePart(
  part: z.infer<typeof readResourceResultSchema>['contents'][number],
  index: number,
  count: number,
  listed: McpListedResource,
): McpResourcePart {
  const mimeType = part.mimeType ?? listed.mimeType ?? ('text' in part ? 'text/plain' : 'application/octet-stream');
  const ownName =
    part.uri !== listed.uri ? part.uri.split(/[/:]/).findLast((segment) => segment.length > 0) : undefined;
  const base = ownName ?? (count > 1 ? `${listed.name} (part ${index + 1} of ${count})` : listed.name);
  const name = resourceFileName(base, mimeType);
  return 'text' in part
    ? { name, mimeType, content: { kind: 'text', text: part.text } }
    : { name, mimeType, content: { kind: 'blob', base64: part.blob } };
}
