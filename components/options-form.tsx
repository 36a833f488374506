import { useEffect, useState, type FormEvent } from 'react';
import { endpointSettingsSchema, type EndpointSettings } from '@/lib/settings/endpoint-settings';

export interface OptionsFormProps {
  initial: EndpointSettings | undefined;
  onSave(settings: EndpointSettings): Promise<string>;
}

export function OptionsForm({ initial, onSave }: OptionsFormProps) {
  const [baseUrl, setBaseUrl] = useState(initial?.baseUrl ?? 'http://localhost:11434/v1');
  const [model, setModel] = useState(initial?.model ?? '');
  const [apiKey, setApiKey] = useState(initial?.apiKey ?? '');
  const [status, setStatus] = useState('');
  useEffect(() => {
    if (!initial) return;
    setBaseUrl(initial.baseUrl);
    setModel(initial.model);
    setApiKey(initial.apiKey);
  }, [initial]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = endpointSettingsSchema.safeParse({
      kind: 'openai-compatible',
      label: 'OpenAI-compatible',
      baseUrl: baseUrl.trim(),
      model: model.trim(),
      apiKey: apiKey.trim(),
      scripted: false,
    });
    if (!parsed.success) {
      setStatus(
        `Not saved: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
      );
      return;
    }
    setStatus(await onSave(parsed.data));
  };
  return (
    <form className="options-form" onSubmit={submit}>
      <h1>Splitbrain settings</h1>
      <fieldset>
        <legend>Endpoint: OpenAI-compatible</legend>
        <p className="hint">
          OpenAI, Ollama (http://localhost:11434/v1), LM Studio (http://localhost:1234/v1), vLLM, OpenRouter…
        </p>
        <label>
          Base URL
          <input
            aria-label="Base URL"
            type="url"
            required
            value={baseUrl}
            onChange={(event) => setBaseUrl(event.target.value)}
          />
        </label>
        <label>
          Model
          <input
            aria-label="Model"
            required
            value={model}
            onChange={(event) => setModel(event.target.value)}
            placeholder="gpt-4.1-mini, llama3.1, …"
          />
        </label>
        <label>
          API key
          <input
            aria-label="API key"
            type="password"
            autoComplete="off"
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
            placeholder="Leave empty for local servers"
          />
        </label>
        <p className="hint">The key is kept in this browser's extension storage and sent only to this base URL.</p>
      </fieldset>
      <button type="submit">Save</button>
      <p role="status" aria-live="polite" className="status">
        {status}
      </p>
    </form>
  );
}
