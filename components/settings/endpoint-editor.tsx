import { useId, useState, type FormEvent } from 'react';
import {
  isOnDeviceOffered,
  ON_DEVICE_PRIVACY,
  onDeviceStatusText,
  type OnDeviceStatus,
} from '@/lib/providers/on-device-availability';
import type { ConnectionReport } from '@/lib/providers/test-connection';
import type { ListedModels } from './context-window-fields';
import { editDraft, settingsFromDraft, withKind, type EndpointDraft } from '@/lib/settings/endpoint-draft';
import {
  endpointKindLabels,
  endpointKinds,
  type EndpointKind,
  type EndpointSettings,
} from '@/lib/settings/endpoint-settings';
import { ContextWindowFields } from './context-window-fields';
import { TestConnection } from './test-connection';

export interface EndpointEditorProps {
  draft: EndpointDraft;
  isNew: boolean;
  onChange(draft: EndpointDraft): void;
  /** Resolves to what to tell the user: saved, or why not. */
  onSave(settings: EndpointSettings): Promise<string>;
  onTest(settings: EndpointSettings): Promise<ConnectionReport>;
  onListModels(settings: EndpointSettings): Promise<ListedModels | { problem: string }>;
  onCancel?(): void;
  /** What the browser says of its on-device model (absent when unknown yet). */
  onDevice?: OnDeviceStatus;
  onDownloadOnDevice?(): void;
}

const kindHints: Record<EndpointKind, string> = {
  openai: 'api.openai.com with your key; Chat Completions, or the Responses API.',
  'openai-compatible':
    'Ollama (http://localhost:11434/v1), LM Studio (http://localhost:1234/v1), vLLM, OpenRouter (https://openrouter.ai/api/v1)… Local servers usually need no key.',
  anthropic:
    'api.anthropic.com with your key. Requests say they come from a browser (anthropic-dangerous-direct-browser-access).',
  google: 'The Gemini API (generativelanguage.googleapis.com) with your key from Google AI Studio.',
  'ai-sdk-chat':
    'A server speaking the AI SDK UI message stream (useChat), e.g. http://localhost:3000/api/chat. It declares the tools; the browser runs them.',
  'chrome-on-device': ON_DEVICE_PRIVACY,
};

/** Edits one endpoint profile: kind, address, model (with the list the API offers), key; Save and Test connection. */
export function EndpointEditor(props: EndpointEditorProps) {
  const { draft, onChange } = props;
  const [status, setStatus] = useState('');
  const [models, setModels] = useState<string[]>([]);
  const [listedWindows, setListedWindows] = useState<Record<string, number>>({});
  const listedWindow = listedWindows[draft.model.trim()];
  const listId = useId();
  const set = (change: Partial<EndpointDraft>) => onChange(editDraft(draft, change));
  const validated = (refusal: string): EndpointSettings | undefined => {
    const result = settingsFromDraft(draft);
    if (result.ok) return result.settings;
    setStatus(`${refusal}: ${result.problem}`);
    return undefined;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const settings = validated('Not saved');
    if (!settings) return;
    // A window the endpoint's list gave is kept with the profile, as if typed.
    const withListed =
      settings.contextWindowTokens === undefined && listedWindow
        ? { ...settings, contextWindowTokens: listedWindow }
        : settings;
    void props.onSave(withListed).then(setStatus);
  };
  const listModels = async () => {
    const settings = validated('Cannot list models');
    if (!settings) return;
    setStatus('Listing models…');
    const result = await props.onListModels(settings);
    if ('problem' in result) return setStatus(result.problem);
    setModels(result.models);
    setListedWindows(result.contextWindows ?? {});
    setStatus(`${result.models.length} models listed: pick one in the Model field.`);
  };
  const test = async (): Promise<ConnectionReport | { problem: string }> => {
    const result = settingsFromDraft(draft);
    if (!result.ok) return { problem: `Cannot test: ${result.problem}` };
    const report = await props.onTest(result.settings);
    if (report.models) setModels(report.models);
    return report;
  };
  const isChat = draft.kind === 'ai-sdk-chat';
  const onDevice = draft.kind === 'chrome-on-device';
  const onDeviceOffered = props.onDevice !== undefined && isOnDeviceOffered(props.onDevice);
  const kinds = endpointKinds.filter((kind) => kind !== 'chrome-on-device' || onDeviceOffered || onDevice);
  return (
    <form className="options-form endpoint-editor" onSubmit={submit} aria-label="Endpoint">
      <fieldset>
        <legend>{props.isNew ? 'New endpoint' : `Edit “${draft.label}”`}</legend>
        <label>
          Kind
          <select
            aria-label="Kind"
            value={draft.kind}
            onChange={(event) => onChange(withKind(draft, event.target.value as EndpointKind))}
          >
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {endpointKindLabels[kind]}
              </option>
            ))}
          </select>
        </label>
        <p className="hint">{kindHints[draft.kind]}</p>
        {props.onDevice && (onDevice || !onDeviceOffered) && (
          <p className="hint on-device-status" data-availability={props.onDevice.availability}>
            {endpointKindLabels['chrome-on-device']}: {onDeviceStatusText(props.onDevice)}
            {onDevice && props.onDevice.availability === 'downloadable' && props.onDownloadOnDevice && (
              <>
                {' '}
                <button type="button" className="button-quiet" onClick={props.onDownloadOnDevice}>
                  Download the model
                </button>
              </>
            )}
          </p>
        )}
        <label>
          Name
          <input
            aria-label="Name"
            value={draft.label}
            onInput={(event) => set({ label: event.currentTarget.value })}
            placeholder={endpointKindLabels[draft.kind]}
          />
        </label>
        {draft.kind === 'openai' && (
          <label>
            API
            <select
              aria-label="OpenAI API"
              value={draft.api}
              onChange={(event) => set({ api: event.target.value as EndpointDraft['api'] })}
            >
              <option value="chat">Chat Completions</option>
              <option value="responses">Responses</option>
            </select>
          </label>
        )}
        {!onDevice && (
          <>
            <label>
              Base URL
              <input
                aria-label="Base URL"
                type="url"
                required
                value={draft.baseUrl}
                onInput={(event) => set({ baseUrl: event.currentTarget.value })}
              />
            </label>
            {isChat && <p className="hint">For a chat server: the full address of its chat route.</p>}
            <label>
              Model
              <span className="model-row">
                <input
                  aria-label="Model"
                  required
                  list={listId}
                  value={draft.model}
                  onInput={(event) => set({ model: event.currentTarget.value })}
                  placeholder="gpt-4.1-mini, llama3.1, claude-sonnet-4-5, gemini-2.5-flash…"
                />
                {!isChat && (
                  <button type="button" className="button-quiet" onClick={() => void listModels()}>
                    List models
                  </button>
                )}
              </span>
              <datalist id={listId}>
                {models.map((model) => (
                  <option key={model} value={model} />
                ))}
              </datalist>
            </label>
            {isChat && <p className="hint">Sent to the server as `model`; servers that pick their own ignore it.</p>}
            <label>
              API key
              <input
                aria-label="API key"
                type="password"
                autoComplete="off"
                value={draft.apiKey}
                onInput={(event) => set({ apiKey: event.currentTarget.value })}
                placeholder="Leave empty for local servers"
              />
            </label>
            {isChat && (
              <label className="checkbox-row">
                <input
                  type="checkbox"
                  checked={draft.continuation}
                  onChange={(event) => set({ continuation: event.target.checked })}
                />
                The server needs a user turn to go on after tool results (send an invisible “Continue.”)
              </label>
            )}
            <p className="hint">The key is kept in this browser’s extension storage and sent only to this endpoint.</p>
          </>
        )}
        <ContextWindowFields draft={draft} onChange={set} listedWindow={listedWindow} />
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
      {/* A new address, kind or model makes an earlier report stale. */}
      <TestConnection key={`${draft.kind} ${draft.baseUrl} ${draft.model}`} run={test} />
      <p role="status" aria-live="polite" className="status">
        {status}
      </p>
    </form>
  );
}
