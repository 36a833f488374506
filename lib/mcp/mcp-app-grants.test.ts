import { describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../storage/key-value-store';
import { mcpAppGrantSchema, type McpAppGrant } from '../protocol/mcp-app-grant';
import type { McpAppLoad } from '../protocol/mcp-app-wire';
import { MCP_APP_GRANTS_KEY, McpAppGrantStore } from './mcp-app-grant-store';
import { McpAppGrants, type McpAppShowing } from './mcp-app-grants';

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

const grant: McpAppGrant = { serverId: 'apps', resourceUri: 'ui://network/app.html', origin: 'http://127.0.0.1:9000' };

const app: McpAppLoad = {
  resourceUri: 'ui://network/app.html',
  serverName: 'Apps',
  html: '<p>app</p>',
  csp: { connectDomains: ['http://127.0.0.1:9000', 'https://*.example.com'], resourceDomains: [] },
  grantedConnect: [],
  tool: { name: 'showNetworkApp', inputSchema: { type: 'object' } },
  input: {},
  result: {},
};
const showing: McpAppShowing = { targetId: 'mcp-app-1', title: 'showNetworkApp', url: 'mcp-app-host.html', app };

function stageShowing(active: string | undefined) {
  const opened: McpAppShowing[] = [];
  return {
    opened,
    stage: {
      openMcpApp: (open: McpAppShowing) => {
        opened.push(open);
        return Promise.resolve();
      },
      activeTargetId: () => Promise.resolve(active),
    },
  };
}

describe('MCP App grants', () => {
  it('accepts only http(s) origins of ui:// resources', () => {
    expect(mcpAppGrantSchema.safeParse(grant).success).toBe(true);
    expect(mcpAppGrantSchema.safeParse({ ...grant, origin: 'http://127.0.0.1:9000/path' }).success).toBe(false);
    expect(mcpAppGrantSchema.safeParse({ ...grant, origin: 'https://*.example.com' }).success).toBe(false);
    expect(mcpAppGrantSchema.safeParse({ ...grant, origin: 'file://' }).success).toBe(false);
    expect(mcpAppGrantSchema.safeParse({ ...grant, resourceUri: 'https://x.test/app' }).success).toBe(false);
  });

  it('remembers grants per server and resource, and revokes them', async () => {
    const store = new McpAppGrantStore(memoryStore());
    await store.set(grant, true);
    await store.set(grant, true);
    await store.set({ ...grant, resourceUri: 'ui://counter/app.html', origin: 'https://other.test' }, true);
    expect(await store.granted('apps', 'ui://network/app.html')).toEqual(['http://127.0.0.1:9000']);
    expect(await store.granted('other', 'ui://network/app.html')).toEqual([]);
    expect(await store.set(grant, false)).toEqual([
      { serverId: 'apps', resourceUri: 'ui://counter/app.html', origin: 'https://other.test' },
    ]);
    expect(await store.granted('apps', 'ui://network/app.html')).toEqual([]);
  });

  it('reads a stored list that does not parse as no grants', async () => {
    const store = new McpAppGrantStore(memoryStore({ [MCP_APP_GRANTS_KEY]: [{ serverId: 'apps', origin: 'x' }] }));
    expect(await store.list()).toEqual([]);
  });

  it('reopens the app shown in the stage with what it is admitted to after a grant and a revoke', async () => {
    const { opened, stage } = stageShowing('mcp-app-1');
    const grants = new McpAppGrants(new McpAppGrantStore(memoryStore()), stage);
    grants.shownApp('apps', showing);
    await grants.set(grant, true);
    // A grant of an origin the resource does not declare changes nothing it may reach.
    await grants.set({ ...grant, origin: 'http://127.0.0.1:9001' }, true);
    await grants.set(grant, false);
    expect(opened.map((open) => open.app.grantedConnect)).toEqual([
      ['http://127.0.0.1:9000'],
      ['http://127.0.0.1:9000'],
      [],
    ]);
    expect(opened.every((open) => open.targetId === 'mcp-app-1')).toBe(true);
  });

  it('reopens nothing for another resource, or when another target is in the stage', async () => {
    const other = stageShowing('mcp-app-1');
    const grants = new McpAppGrants(new McpAppGrantStore(memoryStore()), other.stage);
    grants.shownApp('apps', showing);
    await grants.set({ ...grant, resourceUri: 'ui://counter/app.html' }, true);
    await grants.set({ ...grant, serverId: 'notes' }, true);
    expect(other.opened).toEqual([]);
    const replaced = stageShowing('particles');
    const later = new McpAppGrants(new McpAppGrantStore(memoryStore()), replaced.stage);
    later.shownApp('apps', showing);
    await later.set(grant, true);
    expect(replaced.opened).toEqual([]);
  });
});
