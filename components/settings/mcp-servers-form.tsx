import { useState } from 'react';
import type { McpServerConfig } from '@/lib/mcp/mcp-server-config';
import { draftFromServer, type McpServerDraft } from '@/lib/mcp/mcp-server-draft';
import type { McpTestReport } from '@/lib/mcp/mcp-test-report';
import { EditIcon, PlusIcon, TrashIcon } from '../shared/icons';
import { McpServerEditor } from './mcp-server-editor';

export interface McpServersFormProps {
  servers: McpServerConfig[];
  /** Stores one server (asking for its host first); resolves to a note for the user. */
  onSave(server: McpServerConfig): Promise<string>;
  onRemove(serverId: string): Promise<string>;
  onTest(server: McpServerConfig): Promise<McpTestReport>;
  /** Deletes a server's OAuth tokens; resolves to a note for the user. */
  onSignOut(serverId: string): Promise<string>;
}

const transportLabels = { 'streamable-http': 'Streamable HTTP', sse: 'HTTP+SSE' } as const;

/** Settings' MCP servers: the saved ones (on or off, edit, remove) and an editor for one of them or a new one. */
export function McpServersForm({ servers, onSave, onRemove, onTest, onSignOut }: McpServersFormProps) {
  const [editing, setEditing] = useState<{ draft: McpServerDraft; opened: number }>(() => ({
    draft: draftFromServer(),
    opened: 0,
  }));
  const [note, setNote] = useState('');
  const edit = (server: McpServerConfig | undefined) =>
    setEditing((current) => ({ draft: draftFromServer(server), opened: current.opened + 1 }));
  const takenIds = servers.map((server) => server.id).filter((id) => id !== editing.draft.id);
  const save = async (server: McpServerConfig) => {
    const message = await onSave(server);
    setEditing((current) => ({ ...current, draft: { ...current.draft, id: server.id } }));
    return message;
  };
  const remove = async (server: McpServerConfig) => {
    setNote(await onRemove(server.id));
    if (editing.draft.id === server.id) edit(undefined);
  };
  const toggle = async (server: McpServerConfig, enabled: boolean) => {
    setNote(await onSave({ ...server, enabled }));
    if (editing.draft.id === server.id) setEditing((current) => ({ ...current, draft: { ...current.draft, enabled } }));
  };
  return (
    <section className="profiles-page mcp-servers" aria-labelledby="mcp-heading">
      <h2 id="mcp-heading">MCP servers</h2>
      <p className="hint">
        Each enabled server’s tools reach the model as mcp_&lt;server&gt;_&lt;tool&gt;. Read-only tools run, destructive
        ones always ask, tools without a hint ask, unless you choose otherwise per tool.
      </p>
      {servers.length === 0 ? (
        <p className="hint">No MCP server yet: fill in the form below and press Save.</p>
      ) : (
        <ul className="profile-list" aria-label="MCP servers">
          {servers.map((server) => (
            <li
              key={server.id}
              className="profile-row"
              data-server-id={server.id}
              data-enabled={String(server.enabled)}
            >
              <label className="profile-choice">
                <input
                  type="checkbox"
                  checked={server.enabled}
                  onChange={(event) => void toggle(server, event.target.checked)}
                  aria-label={`Enable ${server.name}`}
                />
                <span className="profile-text">
                  <strong>{server.name}</strong>
                  <span className="hint">
                    {transportLabels[server.transport]}
                    {server.auth === 'oauth' ? ' · OAuth' : ''} · {hostOf(server.url)} · mcp_{server.id}_…
                  </span>
                </span>
              </label>
              <button
                type="button"
                className="icon-button"
                onClick={() => edit(server)}
                aria-label={`Edit ${server.name}`}
                title="Edit"
              >
                <EditIcon />
              </button>
              <button
                type="button"
                className="icon-button danger"
                onClick={() => void remove(server)}
                aria-label={`Remove ${server.name}`}
                title="Remove"
              >
                <TrashIcon />
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button-secondary" onClick={() => edit(undefined)}>
        <PlusIcon /> Add MCP server
      </button>
      <p role="status" aria-live="polite" className="status">
        {note}
      </p>
      <McpServerEditor
        key={editing.opened}
        draft={editing.draft}
        takenIds={takenIds}
        onChange={(draft) => setEditing((current) => ({ ...current, draft }))}
        onSave={save}
        onTest={onTest}
        onSignOut={onSignOut}
        {...(editing.draft.id !== undefined ? { onCancel: () => edit(undefined) } : {})}
      />
    </section>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
