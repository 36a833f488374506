import { describe, expect, it } from 'vitest';
import { mcpPromptText, parseMcpPromptCommand, type McpPromptDefinition } from './mcp-prompt';

const plan: McpPromptDefinition = {
  serverId: 'notes',
  serverName: 'Notes',
  name: 'plan',
  arguments: [
    { name: 'topic', required: true },
    { name: 'detail', required: false },
  ],
};

describe('parseMcpPromptCommand', () => {
  it('reads /server:prompt with name=value arguments whose values may hold spaces', () => {
    expect(parseMcpPromptCommand('/notes:plan topic=the whole week detail=full', [plan])).toEqual({
      ok: true,
      serverId: 'notes',
      name: 'plan',
      arguments: { topic: 'the whole week', detail: 'full' },
    });
  });

  it('says which required argument is missing', () => {
    expect(parseMcpPromptCommand('/notes:plan', [plan])).toEqual({ ok: false, error: '/notes:plan needs topic=….' });
  });

  it('leaves a line that names no listed prompt as an ordinary message', () => {
    expect(parseMcpPromptCommand('/notes:other topic=x', [plan])).toBeUndefined();
    expect(parseMcpPromptCommand('/ not a command', [plan])).toBeUndefined();
    expect(parseMcpPromptCommand('plan topic=x', [plan])).toBeUndefined();
  });
});

describe('mcpPromptText', () => {
  it('joins the messages’ text and names content it cannot pass on', () => {
    expect(
      mcpPromptText({
        messages: [
          { role: 'user', content: { type: 'text', text: 'First.' } },
          { role: 'user', content: { type: 'image', data: 'x', mimeType: 'image/png' } },
        ],
      }),
    ).toEqual({ ok: true, text: 'First.\n\n[image content left out]' });
    expect(mcpPromptText({ nope: true })).toEqual({
      ok: false,
      error: 'The server sent a prompt that is not a prompts/get result.',
    });
  });
});
