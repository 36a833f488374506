import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpTestServer, TEST_PNG_BASE64, type McpTestServer } from '../../tests/support/mcp-test-server';
import type { BlobRef } from '../protocol/blob-ref';
import { mcpServerConfigSchema, type McpServerConfig } from './mcp-server-config';
import { createMcpToolFamily, type McpToolFamily } from './mcp-tool-family';

const ref: BlobRef = {
  blobId: 'b'.repeat(64),
  sha256: 'b'.repeat(64),
  mime: 'image/png',
  size: 70,
  name: 'mcp-image-1',
};
const call = { sessionId: 's1', ownerId: 'call-1' };

let test: McpTestServer;
let family: McpToolFamily;
afterEach(async () => {
  await family.close();
  await test.server.close();
});

function familyWith(servers: McpServerConfig[]): McpToolFamily {
  test = createMcpTestServer();
  family = createMcpToolFamily({
    servers: () => Promise.resolve(servers),
    makeTransport: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void test.server.connect(serverSide);
      return clientSide;
    },
    storeImage: () => () => Promise.resolve({ ok: true, ref }),
  });
  return family;
}

const notes = mcpServerConfigSchema.parse({ id: 'notes', name: 'Notes', url: 'http://127.0.0.1:1/mcp' });

describe('createMcpToolFamily', () => {
  it('offers the enabled servers’ tools namespaced, with their JSON Schemas', async () => {
    const { tools, notes: said } = await familyWith([notes, { ...notes, id: 'off', enabled: false }]).definitions();
    expect(said).toEqual([]);
    const read = tools.find((tool) => tool.name === 'mcp_notes_readNote');
    expect(read).toMatchObject({ serverId: 'notes', toolName: 'readNote', mode: 'allow', readOnly: true });
    expect(read?.inputSchema).toMatchObject({ type: 'object', properties: { title: { type: 'string' } } });
    expect(tools.every((tool) => tool.serverId === 'notes')).toBe(true);
  });

  it('asks before a destructive or unannotated tool and runs a read-only one', async () => {
    familyWith([notes]);
    expect(await family.approval('mcp_notes_readNote', { title: 'a' }, 1000)).toEqual({ required: false });
    expect(await family.approval('mcp_notes_deleteNote', { title: 'a' }, 1000)).toEqual({
      required: true,
      summary: 'Run deleteNote on the MCP server "Notes" with {"title":"a"}.',
      expiresAfterMs: 1000,
    });
    expect((await family.approval('mcp_notes_appendNote', { line: 'x' }, 1000)).required).toBe(true);
  });

  it('runs a call once and returns text, images as BlobRefs, structured content and errors', async () => {
    familyWith([notes]);
    expect(await family.execute('mcp_notes_deleteNote', { title: 'old' }, call)).toEqual({
      ok: true,
      text: 'Deleted old.',
    });
    expect(test.calls.get('deleteNote')).toBe(1);
    expect(await family.execute('mcp_notes_snapshot', {}, call)).toEqual({
      ok: true,
      text: 'One picture.',
      images: [ref],
    });
    expect(await family.execute('mcp_notes_countNotes', {}, call)).toEqual({
      ok: true,
      text: '{"count":3}',
      structuredContent: { count: 3 },
    });
    expect(await family.execute('mcp_notes_failNote', {}, call)).toEqual({
      ok: false,
      error: 'The note store is locked.',
    });
    expect(await family.execute('mcp_notes_nothing', {}, call)).toEqual({
      ok: false,
      error: 'No connected MCP server offers the tool mcp_notes_nothing.',
    });
  });

  it('updates its definitions when the server’s tool list changes', async () => {
    familyWith([notes]);
    expect((await family.definitions()).tools.map((tool) => tool.name)).not.toContain('mcp_notes_extraTool');
    await family.execute('mcp_notes_addTool', {}, call);
    await expect
      .poll(async () => (await family.definitions()).tools.map((tool) => tool.name))
      .toContain('mcp_notes_extraTool');
  });

  it('runs a cut-off read-only call again and calls any other outcome unknown', async () => {
    familyWith([notes]);
    expect(await family.recover('mcp_notes_readNote')).toEqual({ kind: 'never-reached' });
    expect(await family.recover('mcp_notes_slowWrite')).toEqual({ kind: 'unknown' });
  });

  it('notes a server it cannot reach instead of failing the turn', async () => {
    test = createMcpTestServer();
    family = createMcpToolFamily({
      servers: () => Promise.resolve([notes]),
      makeTransport: () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:1');
      },
      storeImage: () => () => Promise.resolve({ ok: true, ref }),
    });
    expect(await family.definitions()).toEqual({
      tools: [],
      notes: ['Notes is not connected: connect ECONNREFUSED 127.0.0.1:1'],
    });
  });

  it('lists the enabled servers’ prompts with their arguments and fills one in as message text', async () => {
    familyWith([notes]);
    const { prompts, notes: said } = await family.prompts();
    expect(said).toEqual([]);
    expect(prompts).toEqual([
      { serverId: 'notes', serverName: 'Notes', name: 'summarize', description: 'Summarize the notes.', arguments: [] },
      {
        serverId: 'notes',
        serverName: 'Notes',
        name: 'plan',
        description: 'Plan a topic.',
        arguments: [
          { name: 'topic', required: true },
          { name: 'detail', required: false },
        ],
      },
    ]);
    expect(await family.prompt('notes', 'plan', { topic: 'the week', detail: 'full' })).toEqual({
      ok: true,
      text: 'Plan the week in full detail.',
    });
    expect(await family.prompt('notes', 'nothing', {})).toMatchObject({ ok: false });
    expect(await family.prompt('gone', 'plan', {})).toEqual({
      ok: false,
      error: 'No enabled MCP server has the id gone.',
    });
  });
});

describe('MCP resources of the tool family', () => {
  it('lists the enabled servers’ resources and reads one as text or as a blob to attach', async () => {
    const family = familyWith([notes, { ...notes, id: 'off', enabled: false }]);
    expect(await family.resources()).toEqual({
      resources: [
        { uri: 'note://first', name: 'first-note', mimeType: 'text/plain', serverId: 'notes', serverName: 'Notes' },
        { uri: 'image://dot', name: 'dot', mimeType: 'image/png', serverId: 'notes', serverName: 'Notes' },
        { uri: 'note://trip', name: 'trip', mimeType: 'text/markdown', serverId: 'notes', serverName: 'Notes' },
      ],
      notes: [],
    });
    expect(await family.resource('notes', 'note://first')).toEqual({
      ok: true,
      parts: [{ name: 'first-note.txt', mimeType: 'text/plain', content: { kind: 'text', text: 'buy milk' } }],
    });
    expect(await family.resource('notes', 'image://dot')).toMatchObject({
      ok: true,
      parts: [{ name: 'dot.png', mimeType: 'image/png', content: { kind: 'blob', base64: TEST_PNG_BASE64 } }],
    });
    // As the attach menu asks: named as it listed the resource, which is not listed again.
    expect(await family.resource('notes', 'note://trip', { name: 'Trip notes', mimeType: 'text/markdown' })).toEqual({
      ok: true,
      parts: [
        {
          name: 'Trip notes (part 1 of 2).md',
          mimeType: 'text/markdown',
          content: { kind: 'text', text: '# Trip\nPack the boots.' },
        },
        { name: 'map.png', mimeType: 'image/png', content: { kind: 'blob', base64: TEST_PNG_BASE64 } },
      ],
    });
    expect(await family.resource('notes', 'note://none')).toMatchObject({ ok: false });
    expect(await family.resource('off', 'note://first')).toEqual({
      ok: false,
      error: 'No enabled MCP server has the id off.',
    });
  });
});

describe('an MCP App’s own resources/list', () => {
  it('passes its own server’s page through, checked, and refuses a server that is off', async () => {
    const family = familyWith([notes, { ...notes, id: 'off', enabled: false }]);
    expect(await family.listAppResources('notes', undefined)).toEqual({
      result: {
        resources: [
          { uri: 'note://first', name: 'first-note', mimeType: 'text/plain' },
          { uri: 'image://dot', name: 'dot', mimeType: 'image/png' },
          { uri: 'note://trip', name: 'trip', mimeType: 'text/markdown' },
        ],
      },
    });
    expect(await family.listAppResources('off', undefined)).toEqual({
      error: 'The app’s MCP server is not enabled any more.',
    });
  });
});
