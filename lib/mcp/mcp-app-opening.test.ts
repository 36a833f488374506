import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpTestServer, type McpTestServer } from '../../tests/support/mcp-test-server';
import { COUNTER_APP_HTML, registerMcpTestApps } from '../../tests/support/mcp-test-apps';
import { mcpServerConfigSchema } from './mcp-server-config';
import type { McpAppOpening } from './mcp-app-opening';
import { createMcpToolFamily, type McpToolFamily } from './mcp-tool-family';

const call = { sessionId: 's1', ownerId: 's1/call-1' };
const apps = mcpServerConfigSchema.parse({ id: 'apps', name: 'Apps', url: 'http://127.0.0.1:1/apps' });

let test: McpTestServer;
let family: McpToolFamily;
afterEach(async () => {
  await family.close();
  await test.server.close();
});

function familyOpening(opened: McpAppOpening[], fail?: string, granted: string[] = []): McpToolFamily {
  test = createMcpTestServer();
  registerMcpTestApps(
    test.server,
    (name) => test.calls.set(name, (test.calls.get(name) ?? 0) + 1),
    'http://127.0.0.1:9',
  );
  family = createMcpToolFamily({
    servers: () => Promise.resolve([apps]),
    makeTransport: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void test.server.connect(serverSide);
      return clientSide;
    },
    storeImage: () => () => Promise.reject(new Error('no images here')),
    appGrants: (serverId, resourceUri) =>
      Promise.resolve(serverId === 'apps' && resourceUri === 'ui://network/app.html' ? granted : []),
    openApp: (opening) => {
      opened.push(opening);
      return Promise.resolve(fail ? { ok: false, error: fail } : { ok: true, targetId: 'mcp-app-1' });
    },
  });
  return family;
}

describe('MCP Apps in the tool family', () => {
  it('opens the ui:// resource a tool names with the call’s input and result, and says so in the output', async () => {
    const opened: McpAppOpening[] = [];
    const output = await familyOpening(opened).execute('mcp_apps_showCounter', { start: 41 }, call);
    expect(output).toMatchObject({
      ok: true,
      text: 'The counter is at 41.',
      app: { resourceUri: 'ui://counter/app.html', targetId: 'mcp-app-1' },
    });
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ sessionId: 's1', callKey: 's1/call-1', serverId: 'apps', title: 'showCounter' });
    expect(opened[0].app).toMatchObject({
      resourceUri: 'ui://counter/app.html',
      serverName: 'Apps',
      html: COUNTER_APP_HTML,
      grantedConnect: [],
      // The tool as the host context's toolInfo carries it: the official SDK requires its input schema.
      tool: { name: 'showCounter', inputSchema: { type: 'object', properties: { start: { type: 'number' } } } },
      input: { start: 41 },
      result: { content: [{ type: 'text', text: 'The counter is at 41.' }], structuredContent: { count: 41 } },
    });
  });

  it('keeps an app-only tool from the model but lets its server’s app name it', async () => {
    const { tools } = await familyOpening([]).definitions();
    expect(tools.map((tool) => tool.name)).toContain('mcp_apps_showCounter');
    expect(tools.map((tool) => tool.name)).not.toContain('mcp_apps_incrementCounter');
    expect(await family.appToolName('apps', 'incrementCounter')).toBe('mcp_apps_incrementCounter');
    expect(await family.appToolName('apps', 'noSuchTool')).toBeUndefined();
    expect(await family.appToolName('other', 'incrementCounter')).toBeUndefined();
  });

  it('returns the result with the reason when the app cannot be shown', async () => {
    const output = await familyOpening([], 'The stage tab did not open.').execute('mcp_apps_showHostileApp', {}, call);
    expect(output).toEqual({
      ok: true,
      text: 'Hostile app shown.',
      app: { resourceUri: 'ui://hostile/app.html', error: 'Could not show the app: The stage tab did not open.' },
    });
  });

  it('admits an app to the declared origins the user granted, and names the others for the panel to ask', async () => {
    const opened: McpAppOpening[] = [];
    const granted = familyOpening(opened, undefined, ['http://127.0.0.1:9', 'http://127.0.0.1:10']);
    const output = await granted.execute('mcp_apps_showNetworkApp', { url: 'x' }, call);
    expect(output).toMatchObject({
      app: { serverId: 'apps', connectGranted: ['http://127.0.0.1:9'], connectDomainsNotGranted: [] },
    });
    expect(opened[0]?.app.grantedConnect).toEqual(['http://127.0.0.1:9']);
  });

  it('admits an app to nothing until the user grants, and names what it declares', async () => {
    const opened: McpAppOpening[] = [];
    const output = await familyOpening(opened).execute('mcp_apps_showNetworkApp', { url: 'x' }, call);
    expect(output).toMatchObject({
      app: { serverId: 'apps', connectGranted: [], connectDomainsNotGranted: ['http://127.0.0.1:9'] },
    });
    expect(opened[0]?.app.grantedConnect).toEqual([]);
  });
});
