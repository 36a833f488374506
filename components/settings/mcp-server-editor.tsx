import { useState, type FormEvent } from 'react';
import type { McpServerConfig } from '@/lib/mcp/mcp-server-config';
import { serverFromDraft, type McpServerDraft } from '@/lib/mcp/mcp-server-draft';
import type { McpTestReport } from '@/lib/mcp/mcp-test-report';
import type { McpToolHint } from '@/lib/mcp/mcp-tool-approval';
import { errorText } from '@/lib/protocol/error-text';
import { Spinner, TrashIcon } from '../shared/icons';
import { McpTestReportView } from './mcp-test-report-view';
import { McpToolModes } from './mcp-tool-modes';

export interface McpServerEditorProps {
  draft: McpServerDraft;
  /** The ids of the other servers, which a new one's may not repeat. */
  takenIds: string[];
  onChange(draft: McpServerDraft): void;
  /** Resolves to what to tell the user: saved, or why not. */
  onSave(server: McpServerConfig): Promise<string>;
  onTest(server: McpServerConfig): Promise<McpTestReport>;
  /** Deletes the saved server's OAuth tokens; resolves to what to tell the user. */
  onSignOut(serverId: string): Promise<string>;
  onCancel?(): void;
}

/** Edits one MCP server: address, transport, headers, approvals; Save and Test connection. */
export function McpServerEditor(props: McpServerEditorProps) {
  const { draft, onChange } = props;
  const [status, setStatus] = useState('');
  const [testing, setTesting] = useState(false);
  const [report, setReport] = useState<McpTestReport | { problem: string }>();
  const set = (change: Partial<McpServerDraft>) => onChange({ ...draft, ...change });
  const setHeader = (index: number, change: Partial<McpServerDraft['headers'][number]>) =>
    set({ headers: draft.headers.map((row, at) => (at === index ? { ...row, ...change } : row)) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = serverFromDraft(draft, props.takenIds);
    if (!result.ok) return setStatus(`Not saved: ${result.problem}`);
    void props.onSave(result.server).then(setStatus);
  };
  const test = async () => {
    const result = serverFromDraft(draft, props.takenIds);
    if (!result.ok) return setReport({ problem: `Cannot test: ${result.problem}` });
    setTesting(true);
    setReport(undefined);
    try {
      setReport(await props.onTest(result.server));
    } catch (error) {
      setReport({ problem: errorText(error) });
    } finally {
      setTesting(false);
    }
  };
  const savedId = draft.id;
  const signOut = async (serverId: string) => {
    setReport(undefined);
    setStatus(await props.onSignOut(serverId));
  };
  const tested = report && 'ok' in report && report.ok ? report.tools : [];
  const tools: { name: string; hint: McpToolHint }[] = [
    ...tested,
    ...Object.keys(draft.toolModes)
      .filter((name) => !tested.some((tool) => tool.name === name))
      .map((name) => ({ name, hint: 'unknown' as const })),
  ];
  return (
    <form className="options-form mcp-server-editor" onSubmit={submit} aria-label="MCP server">
      <fieldset>
        <legend>{draft.id ? `Edit “${draft.name}”` : 'New MCP server'}</legend>
        <label>
          Name
          <input
            aria-label="Server name"
            required
            value={draft.name}
            onInput={(event) => set({ name: event.currentTarget.value })}
          />
        </label>
        {draft.id && <p className="hint">Its tools reach the model as mcp_{draft.id}_….</p>}
        <label>
          URL
          <input
            aria-label="Server URL"
            type="url"
            required
            value={draft.url}
            placeholder="https://example.com/mcp"
            onInput={(event) => set({ url: event.currentTarget.value })}
          />
        </label>
        <label>
          Transport
          <select
            aria-label="Transport"
            value={draft.transport}
            onChange={(event) => set({ transport: event.target.value === 'sse' ? 'sse' : 'streamable-http' })}
          >
            <option value="streamable-http">Streamable HTTP</option>
            <option value="sse">HTTP+SSE (legacy)</option>
          </select>
        </label>
        <label>
          Authentication
          <select
            aria-label="Authentication"
            value={draft.auth}
            onChange={(event) => set({ auth: event.target.value === 'oauth' ? 'oauth' : 'headers' })}
          >
            <option value="headers">Headers (an API key, or none)</option>
            <option value="oauth">OAuth (sign in with the server)</option>
          </select>
        </label>
        {draft.auth === 'oauth' && (
          <p className="hint">
            Test connection opens the server’s sign-in page when there is no valid token. The tokens are kept in this
            browser’s extension storage, refreshed when they expire, and never written to the chat history or an export.
            {savedId && (
              <>
                {' '}
                <button type="button" className="button-quiet" onClick={() => void signOut(savedId)}>
                  Sign out
                </button>
              </>
            )}
          </p>
        )}
        <div className="mcp-headers" role="group" aria-label="Headers">
          <span className="field-label">Headers</span>
          {draft.headers.map((row, index) => (
            <span key={index} className="model-row">
              <input
                aria-label={`Header ${index + 1} name`}
                value={row.name}
                placeholder="Authorization"
                onInput={(event) => setHeader(index, { name: event.currentTarget.value })}
              />
              <input
                aria-label={`Header ${index + 1} value`}
                type="password"
                autoComplete="off"
                value={row.value}
                placeholder="Bearer …"
                onInput={(event) => setHeader(index, { value: event.currentTarget.value })}
              />
              <button
                type="button"
                className="icon-button danger"
                aria-label={`Remove header ${index + 1}`}
                onClick={() => set({ headers: draft.headers.filter((_, at) => at !== index) })}
              >
                <TrashIcon />
              </button>
            </span>
          ))}
          <button
            type="button"
            className="button-quiet"
            onClick={() => set({ headers: [...draft.headers, { name: '', value: '' }] })}
          >
            Add header
          </button>
          <p className="hint">
            Headers (an API key) are kept in this browser’s extension storage, sent only to this server, and never
            written to the chat history or an export.
          </p>
        </div>
        <label className="checkbox-row">
          <input type="checkbox" checked={draft.enabled} onChange={(event) => set({ enabled: event.target.checked })} />
          Offer this server’s tools to the model
        </label>
        <label className="checkbox-row">
          <input
            type="checkbox"
            checked={draft.alwaysAsk}
            onChange={(event) => set({ alwaysAsk: event.target.checked })}
          />
          Ask before every tool of this server, read-only ones too
        </label>
        <McpToolModes
          tools={tools}
          modes={draft.toolModes}
          alwaysAsk={draft.alwaysAsk}
          onChange={(toolModes) => set({ toolModes })}
        />
      </fieldset>
      <div className="editor-actions">
        <button type="submit" className="button-primary">
          Save
        </button>
        {props.onCancel && (
          <button type="button" className="button-quiet" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
      <div className="connection-test">
        <button type="button" className="button-secondary" onClick={() => void test()} disabled={testing}>
          {testing && <Spinner />}
          Test connection
        </button>
        <div role="status" aria-live="polite" className="connection-report">
          {testing && <p className="hint">Testing…</p>}
          {report && <McpTestReportView report={report} />}
        </div>
      </div>
      <p role="status" aria-live="polite" className="status">
        {status}
      </p>
    </form>
  );
}
