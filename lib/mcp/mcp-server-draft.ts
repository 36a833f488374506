import { issuesText } from '../protocol/issue-text';
import { mcpServerConfigSchema, type McpServerConfig, type McpToolMode } from './mcp-server-config';

export interface McpHeaderDraft {
  name: string;
  value: string;
}

/** The Settings form's fields for one server, as typed: nothing checked yet. */
export interface McpServerDraft {
  /** Absent for a server not saved yet; kept once saved, since the tools' names are made from it. */
  id?: string;
  name: string;
  url: string;
  transport: McpServerConfig['transport'];
  headers: McpHeaderDraft[];
  auth: McpServerConfig['auth'];
  enabled: boolean;
  alwaysAsk: boolean;
  toolModes: Record<string, McpToolMode>;
}

export function draftFromServer(server?: McpServerConfig): McpServerDraft {
  if (!server) {
    return {
      name: '',
      url: '',
      transport: 'streamable-http',
      headers: [{ name: '', value: '' }],
      auth: 'headers',
      enabled: true,
      alwaysAsk: false,
      toolModes: {},
    };
  }
  const headers = Object.entries(server.headers).map(([name, value]) => ({ name, value }));
  return {
    id: server.id,
    name: server.name,
    url: server.url,
    transport: server.transport,
    headers: headers.length > 0 ? headers : [{ name: '', value: '' }],
    auth: server.auth,
    enabled: server.enabled,
    alwaysAsk: server.alwaysAsk,
    toolModes: { ...server.toolModes },
  };
}

/** A new server's id from its name (the `<server>` of `mcp_<server>_<tool>`), distinct from the taken ones. */
export function newMcpServerId(name: string, taken: readonly string[]): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 24)
      .replace(/-+$/, '') || 'server';
  if (!taken.includes(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}-${suffix}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

function headersFromDraft(rows: readonly McpHeaderDraft[]): Record<string, string> | string {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const name = row.name.trim();
    if (!name && !row.value) continue;
    if (!name) return 'A header has a value but no name.';
    if (seen.has(name.toLowerCase())) return `The header ${name} is given twice.`;
    seen.add(name.toLowerCase());
    headers[name] = row.value;
  }
  return headers;
}

/**
 * The draft as a server config, or the first thing to fix. Problems name the field, never a header's value
 * (it may be an API key).
 */
export function serverFromDraft(
  draft: McpServerDraft,
  takenIds: readonly string[],
): { ok: true; server: McpServerConfig } | { ok: false; problem: string } {
  const headers = headersFromDraft(draft.headers);
  if (typeof headers === 'string') return { ok: false, problem: headers };
  const name = draft.name.trim();
  const id = draft.id ?? newMcpServerId(name, takenIds);
  const parsed = mcpServerConfigSchema.safeParse({
    id,
    name,
    url: draft.url.trim(),
    transport: draft.transport,
    headers,
    auth: draft.auth,
    enabled: draft.enabled,
    alwaysAsk: draft.alwaysAsk,
    toolModes: draft.toolModes,
  });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path[0] === 'headers' ? ['headers'] : issue.path,
      message: issue.path[0] === 'headers' ? 'a header name or value is not valid.' : issue.message,
    }));
    return { ok: false, problem: issuesText(issues) };
  }
  return { ok: true, server: parsed.data };
}
