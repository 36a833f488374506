import { describe, expect, it } from 'vitest';
import { mcpServerConfigSchema } from './mcp-server-config';
import { draftFromServer, newMcpServerId, serverFromDraft } from './mcp-server-draft';

const notes = mcpServerConfigSchema.parse({
  id: 'notes',
  name: 'Notes',
  url: 'https://notes.example/mcp',
  headers: { Authorization: 'Bearer secret' },
  toolModes: { appendNote: 'allow' },
});

describe('serverFromDraft', () => {
  it('gives back the server a draft was made from, id kept', () => {
    expect(serverFromDraft(draftFromServer(notes), ['notes'])).toEqual({ ok: true, server: notes });
  });

  it('makes a new server an id from its name, distinct from the taken ones, and drops empty header rows', () => {
    const draft = {
      ...draftFromServer(),
      name: 'My Notes!',
      url: ' http://127.0.0.1:3000/mcp ',
      transport: 'sse' as const,
    };
    const result = serverFromDraft(draft, ['my-notes']);
    expect(result).toMatchObject({
      ok: true,
      server: { id: 'my-notes-2', name: 'My Notes!', url: 'http://127.0.0.1:3000/mcp', transport: 'sse', headers: {} },
    });
  });

  it('names the field to fix and never repeats a header value', () => {
    const base = { ...draftFromServer(), name: 'Notes', url: 'https://notes.example/mcp' };
    expect(serverFromDraft({ ...base, url: 'ftp://notes.example' }, [])).toEqual({
      ok: false,
      problem: 'url: Only http and https URLs.',
    });
    expect(serverFromDraft({ ...base, name: ' ' }, [])).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^name: /),
    });
    const badHeader = serverFromDraft({ ...base, headers: [{ name: 'Bad Header', value: 'sk-secret' }] }, []);
    expect(badHeader).toEqual({ ok: false, problem: 'headers: a header name or value is not valid.' });
    expect(serverFromDraft({ ...base, headers: [{ name: '', value: 'sk-secret' }] }, [])).toEqual({
      ok: false,
      problem: 'A header has a value but no name.',
    });
    expect(
      serverFromDraft(
        {
          ...base,
          headers: [
            { name: 'X-Key', value: 'a' },
            { name: 'x-key', value: 'b' },
          ],
        },
        [],
      ),
    ).toEqual({ ok: false, problem: 'The header x-key is given twice.' });
  });
});

describe('newMcpServerId', () => {
  it('keeps to the id pattern whatever the name', () => {
    expect(newMcpServerId('Ünïcode — Tickets (prod)', [])).toBe('unicode-tickets-prod');
    expect(newMcpServerId('!!!', [])).toBe('server');
    expect(newMcpServerId('a'.repeat(60), [])).toHaveLength(24);
  });
});
