import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpAppRequest, McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import { MCP_APP_PROGRESS_EVERY_MS } from './mcp-app-bridge';
import { requestingAppBridge } from './requesting-app-bridge';

interface Setup {
  /** The runtime's answer to each request, by method. */
  answers?: Partial<Record<McpAppRequest['method'], McpAppToolAnswer>>;
  /** Whether the stage saves the files; without it, the stage cannot save at all. */
  saves?: boolean;
}

function bridge({ answers = {}, saves }: Setup) {
  return requestingAppBridge({
    answer: (request) => answers[request.method] ?? { error: `No answer for ${request.method}.` },
    ...(saves === undefined ? {} : { saves }),
  });
}

async function settled(): Promise<void> {
  for (let round = 0; round < 10; round++) await Promise.resolve();
}

const csv = { type: 'resource', resource: { uri: 'file:///report.csv', mimeType: 'text/csv', text: 'a,b\n1,2\n' } };

afterEach(() => {
  vi.useRealTimers();
});

describe('McpAppBridge: ui/download-file', () => {
  it('reports progress on its token while the user decides, and saves once allowed', async () => {
    vi.useFakeTimers();
    let allow: (answer: McpAppToolAnswer) => void = () => undefined;
    const { host, posted, saved } = requestingAppBridge({
      saves: true,
      answer: () => new Promise((resolve) => (allow = resolve)),
    });
    host.receive({
      jsonrpc: '2.0',
      id: 'd',
      method: 'ui/download-file',
      params: { contents: [csv], _meta: { progressToken: 'p' } },
    });
    await vi.advanceTimersByTimeAsync(MCP_APP_PROGRESS_EVERY_MS * 4);
    const progress = posted.filter((message) => 'method' in message && message.method === 'notifications/progress');
    expect(progress.map((message) => 'params' in message && message.params)).toEqual(
      [1, 2, 3, 4].map((step) => ({ progressToken: 'p', progress: step })),
    );
    allow({ result: {} });
    await vi.advanceTimersByTimeAsync(MCP_APP_PROGRESS_EVERY_MS * 2);
    expect(saved).toHaveLength(1);
    expect(posted.at(-1)).toEqual({ jsonrpc: '2.0', id: 'd', result: {} });
  });

  it('declares downloadFile only when the stage can save', () => {
    expect(bridge({ saves: true }).posted[0]).toMatchObject({ result: { hostCapabilities: { downloadFile: {} } } });
    expect(JSON.stringify(bridge({}).posted[0])).not.toContain('downloadFile');
    const cannot = bridge({});
    cannot.host.receive({ jsonrpc: '2.0', id: 'd', method: 'ui/download-file', params: { contents: [csv] } });
    expect(cannot.posted.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 'd',
      error: { code: -32601, message: 'Method not found: ui/download-file.' },
    });
  });

  it('asks the runtime once for all the files, by name, type and size, and saves their bytes once allowed', async () => {
    const { host, posted, requests, saved } = bridge({
      saves: true,
      answers: {
        'resources/read': {
          result: { contents: [{ uri: 'report://q4', mimeType: 'application/pdf', blob: 'JVBERg==' }] },
        },
        'ui/download-file': { result: {} },
      },
    });
    host.receive({
      jsonrpc: '2.0',
      id: 'd',
      method: 'ui/download-file',
      params: { contents: [csv, { type: 'resource_link', uri: 'report://q4', name: 'Q4 report' }] },
    });
    await settled();
    expect(requests).toEqual([
      { method: 'resources/read', uri: 'report://q4' },
      {
        method: 'ui/download-file',
        files: [
          { name: 'report.csv', mimeType: 'text/csv', size: 8 },
          { name: 'Q4 report.pdf', mimeType: 'application/pdf', size: 4 },
        ],
      },
    ]);
    expect(saved).toHaveLength(1);
    expect(new TextDecoder().decode(saved[0][0].bytes)).toBe('a,b\n1,2\n');
    expect(new TextDecoder().decode(saved[0][1].bytes)).toBe('%PDF');
    expect(posted.at(-1)).toEqual({ jsonrpc: '2.0', id: 'd', result: {} });
  });

  it('answers isError when the user denies or the save fails, and saves nothing denied', async () => {
    const denied = bridge({ saves: true, answers: { 'ui/download-file': { error: 'Download denied by the user.' } } });
    denied.host.receive({ jsonrpc: '2.0', id: 1, method: 'ui/download-file', params: { contents: [csv] } });
    await settled();
    expect(denied.saved).toEqual([]);
    expect(denied.posted.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: { isError: true } });

    const failed = bridge({ saves: false, answers: { 'ui/download-file': { result: {} } } });
    failed.host.receive({ jsonrpc: '2.0', id: 2, method: 'ui/download-file', params: { contents: [csv] } });
    await settled();
    expect(failed.saved).toHaveLength(1);
    expect(failed.posted.at(-1)).toEqual({ jsonrpc: '2.0', id: 2, result: { isError: true } });
  });

  it('refuses a web link, an unreadable link and bad params without asking the user', async () => {
    const { host, posted, requests } = bridge({ saves: true, answers: { 'ui/download-file': { result: {} } } });
    const link = (uri: string) => ({ contents: [{ type: 'resource_link', uri, name: 'x' }] });
    host.receive({ jsonrpc: '2.0', id: 1, method: 'ui/download-file', params: link('https://example.com/x.pdf') });
    host.receive({ jsonrpc: '2.0', id: 2, method: 'ui/download-file', params: link('note://other-server') });
    host.receive({ jsonrpc: '2.0', id: 3, method: 'ui/download-file', params: { contents: [] } });
    host.receive({
      jsonrpc: '2.0',
      id: 4,
      method: 'ui/download-file',
      params: { contents: [{ type: 'resource', resource: { uri: 'file:///x', blob: 'not base64!' } }] },
    });
    await settled();
    expect(requests).toEqual([{ method: 'resources/read', uri: 'note://other-server' }]);
    const errors = Object.fromEntries(
      posted.flatMap((message) => ('error' in message && message.id !== 0 ? [[message.id, message.error]] : [])),
    );
    expect(errors).toEqual({
      1: {
        code: -32602,
        message:
          'Only resources of the app’s own MCP server are downloaded; https://example.com/x.pdf is not one, and this host fetches nothing from elsewhere.',
      },
      2: { code: -32000, message: 'Could not read note://other-server: No answer for resources/read.' },
      3: { code: -32602, message: 'Invalid params for ui/download-file.' },
      4: { code: -32602, message: 'Invalid params for ui/download-file.' },
    });
  });
});
