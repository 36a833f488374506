import { z } from 'zod';

/** The most of one resource that is attached: as much as a file the user picks may be (`INTAKE_LIMITS`). */
export const MCP_RESOURCE_MAX_BYTES = 20 * 1024 * 1024;

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

/** The runtime's answer to `mcp/resource`: one resource's content, as text or base64 bytes, to attach as a file. */
export const mcpResourceResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    name: z.string(),
    mimeType: z.string(),
    content: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('text'), text: z.string() }),
      z.object({ kind: z.literal('blob'), base64: z.string() }),
    ]),
  }),
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
 * A `resources/read` result as one attachment: its first content, text or blob (a resource of several parts is
 * attached by its first, and says so), within the size a picked file may have.
 */
export function mcpResourceAttachment(result: unknown, listed: McpListedResource): McpResourceResult {
  const parsed = readResourceResultSchema.safeParse(result);
  if (!parsed.success) return { ok: false, error: 'The server sent a resource that is not a resources/read result.' };
  const [first] = parsed.data.contents;
  if (!first) return { ok: false, error: `${listed.uri} has no content.` };
  const mimeType = first.mimeType ?? listed.mimeType ?? ('text' in first ? 'text/plain' : 'application/octet-stream');
  const size = 'text' in first ? first.text.length : Math.floor((first.blob.length * 3) / 4);
  if (size > MCP_RESOURCE_MAX_BYTES) {
    return { ok: false, error: `${listed.uri} is larger than ${MCP_RESOURCE_MAX_BYTES / 1024 / 1024} MB.` };
  }
  const name = resourceFileName(listed.name, mimeType);
  return 'text' in first
    ? { ok: true, name, mimeType, content: { kind: 'text', text: first.text } }
    : { ok: true, name, mimeType, content: { kind: 'blob', base64: first.blob } };
}
