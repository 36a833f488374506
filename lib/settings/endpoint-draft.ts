import {
  defaultBaseUrls,
  endpointKindLabels,
  isRemoteEndpoint,
  endpointSettingsSchema,
  type EndpointKind,
  type EndpointSettings,
} from './endpoint-settings';
import { issuesText } from '../protocol/issue-text';

/** What the settings form edits: every field of every kind, as typed. */
export interface EndpointDraft {
  kind: EndpointKind;
  label: string;
  baseUrl: string;
  model: string;
  apiKey: string;
  api: 'chat' | 'responses';
  continuation: boolean;
  /** Kept from the scripted demo profile while its address is unchanged, so the panel keeps saying so. */
  scripted: boolean;
  /** Tokens, as typed; empty leaves the window to the known-model table. */
  contextWindow: string;
  /** Tokens, as typed; empty leaves the reserve to its default. */
  outputReserve: string;
}

const defaultModels: Record<EndpointKind, string> = {
  openai: 'gpt-4.1-mini',
  'openai-compatible': '',
  anthropic: 'claude-sonnet-4-5',
  google: 'gemini-2.5-flash',
  'ai-sdk-chat': 'default',
  'chrome-on-device': '',
};

/** The on-device kind has no address: its draft keeps the field empty. */
const draftBaseUrls: Record<EndpointKind, string> = { ...defaultBaseUrls, 'chrome-on-device': '' };

export function draftFromSettings(settings: EndpointSettings | undefined): EndpointDraft {
  if (!settings)
    return withKind(
      {
        kind: 'openai-compatible',
        label: '',
        baseUrl: '',
        model: '',
        apiKey: '',
        api: 'chat',
        continuation: false,
        scripted: false,
        contextWindow: '',
        outputReserve: '',
      },
      'openai-compatible',
    );
  return {
    kind: settings.kind,
    label: settings.label,
    baseUrl: isRemoteEndpoint(settings) ? settings.baseUrl : '',
    model: isRemoteEndpoint(settings) ? settings.model : '',
    apiKey: isRemoteEndpoint(settings) ? settings.apiKey : '',
    api: settings.kind === 'openai' ? settings.api : 'chat',
    continuation: settings.kind === 'ai-sdk-chat' ? settings.continuation : false,
    scripted: settings.scripted,
    contextWindow: settings.contextWindowTokens === undefined ? '' : String(settings.contextWindowTokens),
    outputReserve: settings.outputReserveTokens === undefined ? '' : String(settings.outputReserveTokens),
  };
}

/** An empty field is unset; anything else is read as a number (digits with separators allowed), checked by the schema. */
function tokenCount(text: string): number | undefined {
  const cleaned = text.replace(/[\s,_']/g, '');
  return cleaned === '' ? undefined : Number(cleaned);
}

function windowFields(draft: EndpointDraft): { contextWindowTokens?: number; outputReserveTokens?: number } {
  const contextWindowTokens = tokenCount(draft.contextWindow);
  const outputReserveTokens = tokenCount(draft.outputReserve);
  return {
    ...(contextWindowTokens === undefined ? {} : { contextWindowTokens }),
    ...(outputReserveTokens === undefined ? {} : { outputReserveTokens }),
  };
}

/** Changes fields; a new address or kind is no longer the scripted demo. */
export function editDraft(draft: EndpointDraft, change: Partial<EndpointDraft>): EndpointDraft {
  const leavesDemo =
    (change.baseUrl !== undefined && change.baseUrl !== draft.baseUrl) ||
    (change.kind !== undefined && change.kind !== draft.kind);
  return { ...draft, ...change, ...(leavesDemo ? { scripted: false } : {}) };
}

/** Switches the kind; fields still holding the previous kind's defaults (or nothing) take the new kind's. */
export function withKind(draft: EndpointDraft, kind: EndpointKind): EndpointDraft {
  const untouched = (value: string, defaults: Record<EndpointKind, string>) =>
    value.trim() === '' || value === defaults[draft.kind];
  return {
    ...editDraft(draft, { kind }),
    label: untouched(draft.label, endpointKindLabels) ? endpointKindLabels[kind] : draft.label,
    baseUrl: untouched(draft.baseUrl, draftBaseUrls) ? draftBaseUrls[kind] : draft.baseUrl,
    model: untouched(draft.model, defaultModels) ? defaultModels[kind] : draft.model,
  };
}

/** Validates the draft into settings, or says which fields are wrong, in the form's own words. */
export function settingsFromDraft(
  draft: EndpointDraft,
): { ok: true; settings: EndpointSettings } | { ok: false; problem: string } {
  const label = draft.label.trim() || endpointKindLabels[draft.kind];
  const parsed = endpointSettingsSchema.safeParse(
    draft.kind === 'chrome-on-device'
      ? { kind: draft.kind, label, scripted: false, ...windowFields(draft) }
      : {
          kind: draft.kind,
          label,
          baseUrl: draft.baseUrl.trim(),
          model: draft.model.trim(),
          apiKey: draft.apiKey.trim(),
          scripted: draft.scripted,
          ...(draft.kind === 'openai' ? { api: draft.api } : {}),
          ...(draft.kind === 'ai-sdk-chat' ? { continuation: draft.continuation } : {}),
          ...windowFields(draft),
        },
  );
  if (parsed.success) return { ok: true, settings: parsed.data };
  const names: Record<string, string> = {
    baseUrl: 'Base URL',
    model: 'Model',
    apiKey: 'API key',
    label: 'Name',
    contextWindowTokens: 'Context window',
    outputReserveTokens: 'Output reserve',
  };
  const problem = issuesText(
    parsed.error.issues.map((issue) => ({
      path: [names[String(issue.path[0])] ?? String(issue.path[0])],
      message: issue.message,
    })),
  );
  return { ok: false, problem };
}
