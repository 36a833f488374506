import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTarget, type ServedTarget } from './cli';

let served: ServedTarget;
let client: Client;

beforeAll(async () => {
  served = await serveTarget('particles', { port: 0 });
  client = new Client({ name: 'mcp-serve-test', version: '0.0.1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
});

afterAll(async () => {
  await client.close();
  await served.close();
});

describe('npm run mcp:serve -- particles', () => {
  it('lists a tool per target action, each naming the target’s ui:// resource, with the manifest as JSON Schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'particles_get_parameters',
      'particles_set_parameters',
      'particles_reset',
    ]);
    for (const tool of tools) expect(tool._meta).toEqual({ ui: { resourceUri: 'ui://splitbrain/particles' } });
    const set = tools[1];
    expect(set.inputSchema.properties?.speed).toMatchObject({ type: 'number', minimum: 0, maximum: 50 });
    expect(set.inputSchema.properties?.mode).toMatchObject({ type: 'string', enum: expect.any(Array) });
    expect(tools[0].annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools[2].annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('serves the target’s page as one self-contained text/html;profile=mcp-app document', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({ uri: 'ui://splitbrain/particles', mimeType: 'text/html;profile=mcp-app' }),
    ]);
    const { contents } = await client.readResource({ uri: 'ui://splitbrain/particles' });
    expect(contents).toHaveLength(1);
    const html = 'text' in contents[0] ? contents[0].text : '';
    expect(contents[0].mimeType).toBe('text/html;profile=mcp-app');
    const outsideScripts = html.replace(/<script>[\s\S]*?<\/script>/g, '');
    expect(outsideScripts).not.toMatch(/<script\s+src=|<link\s+rel="stylesheet"/);
    expect(html.match(/<script>/g)).toHaveLength(7);
    expect(html).toContain('window.SplitbrainManifest = {"id":"particles"');
    expect(html.indexOf("method: 'ui/initialize'")).toBeGreaterThan(0);
    expect(html.indexOf("method: 'ui/initialize'")).toBeLessThan(html.indexOf('Splitbrain target bridge'));
    expect(html).toContain('<style>');
  });

  it('sets, reads and resets the parameters as the extension checks them, with the values as structured content', async () => {
    const set = await client.callTool({ name: 'particles_set_parameters', arguments: { speed: 80 } });
    expect(set.isError).toBeFalsy();
    expect(set.structuredContent).toMatchObject({ values: { speed: 50 } });
    const read = await client.callTool({ name: 'particles_get_parameters', arguments: {} });
    expect(read.structuredContent).toMatchObject({ values: { speed: 50 } });
    const wrong = await client.callTool({ name: 'particles_set_parameters', arguments: { spd: 3 } });
    expect(wrong.isError).toBe(true);
    expect(JSON.stringify(wrong.content)).toContain('speed');
    const reset = await client.callTool({ name: 'particles_reset', arguments: {} });
    expect(reset.structuredContent).toMatchObject({ values: { speed: 8 } });
  });
});
