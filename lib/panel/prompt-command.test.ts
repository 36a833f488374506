import { describe, expect, it } from 'vitest';
import type { McpPromptDefinition } from '../protocol/mcp-prompt';
import { promptCommandText, promptSuggestions, resolvePromptCommand } from './prompt-command';

const summarize: McpPromptDefinition = { serverId: 'notes', serverName: 'Notes', name: 'summarize', arguments: [] };
const plan: McpPromptDefinition = {
  serverId: 'notes',
  serverName: 'Notes',
  name: 'plan',
  description: 'Plan a topic.',
  arguments: [
    { name: 'topic', required: true },
    { name: 'detail', required: false },
  ],
};
const review: McpPromptDefinition = { serverId: 'tickets', serverName: 'Tickets', name: 'review-plan', arguments: [] };
const prompts = [summarize, plan, review];

describe('the composer’s / commands', () => {
  it('suggests prompts by command or name while the first word is typed, prefix matches first', () => {
    expect(promptSuggestions('/', prompts)).toEqual(prompts);
    expect(promptSuggestions('/pl', prompts)).toEqual([plan, review]);
    expect(promptSuggestions('/notes:s', prompts)).toEqual([summarize]);
    expect(promptSuggestions('/tick', prompts)).toEqual([review]);
    expect(promptSuggestions('/plan topic=x', prompts)).toEqual([]);
    expect(promptSuggestions('plan', prompts)).toEqual([]);
  });

  it('completes a prompt to its command with its required arguments to fill', () => {
    expect(promptCommandText(summarize)).toBe('/notes:summarize ');
    expect(promptCommandText(plan)).toBe('/notes:plan topic=');
  });

  it('fills a listed prompt in through its server, and sends any other text as typed', async () => {
    const asked: unknown[] = [];
    const runtime = {
      prompts: async () => ({ prompts, notes: [] }),
      prompt: async (serverId: string, name: string, args: Record<string, string>) => {
        asked.push({ serverId, name, args });
        return name === 'plan'
          ? { ok: true as const, text: `Plan ${args.topic}.` }
          : { ok: false as const, error: '401 Unauthorized' };
      },
    };
    expect(await resolvePromptCommand('/notes:plan topic=the garden party', runtime)).toEqual({
      ok: true,
      text: 'Plan the garden party.',
    });
    expect(asked).toEqual([{ serverId: 'notes', name: 'plan', args: { topic: 'the garden party' } }]);
    expect(await resolvePromptCommand('/notes:plan', runtime)).toEqual({
      ok: false,
      error: '/notes:plan needs topic=….',
    });
    expect(await resolvePromptCommand('/notes:summarize', runtime)).toEqual({
      ok: false,
      error: '/notes:summarize: 401 Unauthorized',
    });
    expect(await resolvePromptCommand('/etc/hosts is a file', runtime)).toEqual({
      ok: true,
      text: '/etc/hosts is a file',
    });
    expect(await resolvePromptCommand('hello', runtime)).toEqual({ ok: true, text: 'hello' });
  });
});
