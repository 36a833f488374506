import { convertBase64ToUint8Array } from '@ai-sdk/provider-utils';
import { z } from 'zod';
import { MCP_APP_MIME_TYPE, mcpAppCspSchema, type McpAppCsp } from '../protocol/mcp-app-wire';

/** An MCP App's document at most; a bigger one is refused rather than cut. */
export const MCP_APP_HTML_LIMIT = 2_000_000;

const uiUri = z
  .string()
  .max(2000)
  .refine((uri) => uri.startsWith('ui://'));

/** A tool's `_meta` as the MCP Apps extension reads it: `ui.resourceUri` (or the older `ui/resourceUri`) and visibility. */
const toolMetaSchema = z.object({
  ui: z
    .object({
      resourceUri: uiUri.optional(),
      visibility: z.array(z.string().max(20)).max(10).optional(),
    })
    .optional()
    .catch(undefined),
  'ui/resourceUri': uiUri.optional().catch(undefined),
});

export interface McpToolApp {
  /** The `ui://` resource the tool's results are shown in. */
  resourceUri?: string;
  /** Only the app may call it (`visibility` without "model"): it is not offered to the model. */
  appOnly: boolean;
}

/** What a listed tool's `_meta` says about MCP Apps; nothing when it names no valid `ui://` resource. */
export function mcpToolApp(meta: unknown): McpToolApp {
  const parsed = toolMetaSchema.safeParse(meta ?? {});
  if (!parsed.success) return { appOnly: false };
  const resourceUri = parsed.data.ui?.resourceUri ?? parsed.data['ui/resourceUri'];
  const visibility = parsed.data.ui?.visibility;
  return {
    ...(resourceUri ? { resourceUri } : {}),
    appOnly: visibility !== undefined && !visibility.includes('model'),
  };
}

const contentSchema = z
  .object({
    uri: z.string(),
    mimeType: z.string().max(200).optional(),
    text: z.string().optional(),
    blob: z.string().optional(),
    _meta: z
      .object({ ui: z.object({ csp: mcpAppCspSchema.optional().catch(undefined) }).optional() })
      .optional()
      .catch(undefined),
  })
  .passthrough();

const readResultSchema = z.object({ contents: z.array(z.unknown()).max(100) });

function isAppMime(mimeType: string | undefined): boolean {
  return (mimeType ?? '').replace(/\s+/g, '').toLowerCase() === MCP_APP_MIME_TYPE;
}

function decodeBlob(blob: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(convertBase64ToUint8Array(blob));
  } catch {
    return undefined;
  }
}

/** The app's document and its declared policy from a `resources/read` result, or why it cannot be shown. */
export function mcpAppDocument(
  raw: unknown,
  uri: string,
): { ok: true; html: string; csp: McpAppCsp } | { ok: false; error: string } {
  const parsed = readResultSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: `The server's answer to reading ${uri} is not a resource.` };
  const contents = parsed.data.contents.flatMap((item) => {
    const content = contentSchema.safeParse(item);
    return content.success ? [content.data] : [];
  });
  const content = contents.find((item) => isAppMime(item.mimeType));
  if (!content) return { ok: false, error: `${uri} has no content of type ${MCP_APP_MIME_TYPE}.` };
  const html = content.text ?? (content.blob !== undefined ? decodeBlob(content.blob) : undefined);
  if (html === undefined) return { ok: false, error: `${uri} has neither text nor UTF-8 blob content.` };
  if (html.length > MCP_APP_HTML_LIMIT)
    return { ok: false, error: `${uri} is ${html.length} characters, more than the ${MCP_APP_HTML_LIMIT} allowed.` };
  return { ok: true, html, csp: content._meta?.ui?.csp ?? { connectDomains: [], resourceDomains: [] } };
}
