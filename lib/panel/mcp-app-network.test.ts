import { describe, expect, it } from 'vitest';
import { isAppOriginGranted, mcpAppNetworkAsk } from './mcp-app-network';

const app = {
  resourceUri: 'ui://network/app.html',
  targetId: 'mcp-app-1',
  serverId: 'apps',
  connectGranted: ['https://a.test'],
  connectDomainsNotGranted: ['https://b.test'],
};

describe('mcpAppNetworkAsk', () => {
  it('reads the declared origins of an opened app from the tool output', () => {
    const ask = mcpAppNetworkAsk({ ok: true, app })!;
    expect(ask).toEqual({
      serverId: 'apps',
      resourceUri: 'ui://network/app.html',
      origins: ['https://a.test', 'https://b.test'],
    });
    const granted = { serverId: 'apps', resourceUri: app.resourceUri, origin: 'https://b.test' };
    expect(isAppOriginGranted([granted], ask, 'https://b.test')).toBe(true);
    expect(isAppOriginGranted([{ ...granted, serverId: 'other' }], ask, 'https://b.test')).toBe(false);
  });

  it('asks nothing for an app that declares nothing, or another tool', () => {
    expect(mcpAppNetworkAsk({ ok: true, app: { resourceUri: 'ui://x', targetId: 't' } })).toBeUndefined();
    expect(
      mcpAppNetworkAsk({ ok: true, app: { ...app, connectGranted: [], connectDomainsNotGranted: [] } }),
    ).toBeUndefined();
    expect(mcpAppNetworkAsk({ ok: true, text: 'hi' })).toBeUndefined();
    expect(mcpAppNetworkAsk(undefined)).toBeUndefined();
  });
});
