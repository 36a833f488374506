import { describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../storage/key-value-store';
import { mcpServerConfigSchema } from './mcp-server-config';
import { MCP_SERVERS_KEY, McpServerStore } from './mcp-server-store';

function memoryStore(initial: Record<string, unknown> = {}): KeyValueStore {
  const values = new Map(Object.entries(initial));
  return {
    get: (key) => Promise.resolve(values.get(key)),
    set: (key, value) => {
      values.set(key, value);
      return Promise.resolve();
    },
    onChange: () => undefined,
  };
}

const notes = mcpServerConfigSchema.parse({
  id: 'notes',
  name: 'Notes',
  url: 'http://127.0.0.1:3000/mcp',
  headers: { Authorization: 'Bearer secret' },
});

describe('McpServerStore', () => {
  it('saves, replaces and removes servers by id', async () => {
    const store = new McpServerStore(memoryStore());
    expect(await store.save(notes)).toEqual([notes]);
    expect(await store.save({ ...notes, name: 'My notes' })).toEqual([{ ...notes, name: 'My notes' }]);
    expect(await store.remove('notes')).toEqual([]);
  });

  it('reads a broken stored list as no servers', async () => {
    const store = new McpServerStore(memoryStore({ [MCP_SERVERS_KEY]: [{ id: 'Not An Id', url: 'ftp://x' }] }));
    expect(await store.load()).toEqual([]);
  });

  it('refuses a URL that is not http(s) and a header name that is not one', () => {
    expect(mcpServerConfigSchema.safeParse({ ...notes, url: 'file:///etc/passwd' }).success).toBe(false);
    expect(mcpServerConfigSchema.safeParse({ ...notes, headers: { 'Bad Header': 'x' } }).success).toBe(false);
  });
});
