import { describe, expect, it } from 'vitest';
import { draftFromSettings, editDraft, settingsFromDraft, withKind } from './endpoint-draft';

describe('endpoint draft', () => {
  it('starts as a local OpenAI-compatible server (Ollama) and swaps untouched defaults with the kind', () => {
    const fresh = draftFromSettings(undefined);
    expect(fresh).toMatchObject({
      kind: 'openai-compatible',
      label: 'OpenAI-compatible',
      baseUrl: 'http://localhost:11434/v1',
      model: '',
    });
    const gemini = withKind(fresh, 'google');
    expect(gemini).toMatchObject({
      label: 'Google Gemini',
      baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
      model: 'gemini-2.5-flash',
    });
    const edited = withKind({ ...gemini, label: 'My Gemini', baseUrl: 'https://proxy.example/v1beta' }, 'anthropic');
    expect(edited).toMatchObject({
      label: 'My Gemini',
      baseUrl: 'https://proxy.example/v1beta',
      model: 'claude-sonnet-4-5',
    });
  });

  it('validates into settings of the chosen kind, keeping only the fields of that kind', () => {
    const draft = {
      ...withKind(draftFromSettings(undefined), 'openai'),
      apiKey: ' sk-1 ',
      api: 'responses' as const,
      continuation: true,
    };
    expect(settingsFromDraft(draft)).toEqual({
      ok: true,
      settings: {
        kind: 'openai',
        label: 'OpenAI',
        baseUrl: 'https://api.openai.com/v1',
        model: 'gpt-4.1-mini',
        apiKey: 'sk-1',
        scripted: false,
        api: 'responses',
      },
    });
    const chat = { ...withKind(draftFromSettings(undefined), 'ai-sdk-chat'), continuation: true };
    expect(settingsFromDraft(chat)).toMatchObject({
      ok: true,
      settings: { kind: 'ai-sdk-chat', baseUrl: 'http://localhost:3000/api/chat', continuation: true },
    });
  });

  it('names the fields that are wrong with the labels the form shows', () => {
    const result = settingsFromDraft({ ...draftFromSettings(undefined), baseUrl: 'localhost:11434', model: '' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(/^Base URL: .+; Model: .+$/);
  });

  it('keeps the scripted-demo flag only while the address and kind are unchanged', () => {
    const demo = draftFromSettings({
      kind: 'openai-compatible',
      label: 'Scripted demo model',
      baseUrl: 'http://127.0.0.1:4010/v1',
      model: 'scripted-model',
      apiKey: '',
      scripted: true,
    });
    expect(settingsFromDraft(editDraft(demo, { label: 'Demo' }))).toMatchObject({ settings: { scripted: true } });
    expect(settingsFromDraft(editDraft(demo, { baseUrl: 'http://localhost:11434/v1' }))).toMatchObject({
      settings: { scripted: false },
    });
    expect(withKind(demo, 'anthropic').scripted).toBe(false);
  });

  it('round-trips saved settings', () => {
    const settings = {
      kind: 'anthropic' as const,
      label: 'Claude',
      baseUrl: 'https://api.anthropic.com/v1',
      model: 'claude-opus-4-1',
      apiKey: 'sk-ant',
      scripted: false,
    };
    expect(settingsFromDraft(draftFromSettings(settings))).toEqual({ ok: true, settings });
  });
});

describe('endpoint draft window fields', () => {
  it('keeps a typed window and reserve (separators allowed), leaves empty ones unset, and names a bad one', () => {
    const draft = { ...withKind(draftFromSettings(undefined), 'openai'), contextWindow: '32,768', outputReserve: '' };
    const result = settingsFromDraft(draft);
    expect(result.ok && result.settings.contextWindowTokens).toBe(32_768);
    expect(result.ok && 'outputReserveTokens' in result.settings).toBe(false);
    expect(draftFromSettings(result.ok ? result.settings : undefined)).toMatchObject({
      contextWindow: '32768',
      outputReserve: '',
    });
    const bad = settingsFromDraft({ ...draft, contextWindow: 'big' });
    expect(bad.ok ? '' : bad.problem).toMatch(/^Context window: /);
  });
});
