import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** A 1×1 PNG, the image result of the `snapshot` tool. */
export const TEST_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export interface McpTestServer {
  server: McpServer;
  /** How many times each tool ran: the proof that a call was not made twice. */
  calls: Map<string, number>;
  /** Lets every `slowWrite` call in progress finish. */
  releaseSlow(): void;
}

/**
 * The MCP server the tests connect to, built with the official SDK: tools with annotations, an image result,
 * structured content, an error, a slow tool, a list change, a prompt and a resource.
 */
export function createMcpTestServer(
  shared?: Pick<McpTestServer, 'calls'> & { released(): Promise<void> },
): McpTestServer {
  const server = new McpServer(
    { name: 'splitbrain-test-server', version: '1.2.3' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const calls = shared?.calls ?? new Map<string, number>();
  const count = (name: string) => calls.set(name, (calls.get(name) ?? 0) + 1);
  let release: () => void = () => undefined;
  let released = new Promise<void>((resolve) => (release = resolve));

  server.registerTool(
    'readNote',
    {
      description: 'Reads a note by its title.',
      inputSchema: { title: z.string() },
      annotations: { readOnlyHint: true },
    },
    ({ title }) => {
      count('readNote');
      return { content: [{ type: 'text', text: `Note ${title}: buy milk.` }] };
    },
  );
  server.registerTool(
    'deleteNote',
    {
      description: 'Deletes a note for good.',
      inputSchema: { title: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: true },
    },
    ({ title }) => {
      count('deleteNote');
      return { content: [{ type: 'text', text: `Deleted ${title}.` }] };
    },
  );
  server.registerTool(
    'appendNote',
    { description: 'Appends a line.', inputSchema: { line: z.string() } },
    ({ line }) => {
      count('appendNote');
      return { content: [{ type: 'text', text: `Appended ${line}.` }] };
    },
  );
  server.registerTool(
    'snapshot',
    { description: 'A picture of the notes.', annotations: { readOnlyHint: true } },
    () => {
      count('snapshot');
      return {
        content: [
          { type: 'text', text: 'One picture.' },
          { type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' },
        ],
      };
    },
  );
  server.registerTool(
    'countNotes',
    {
      description: 'How many notes there are.',
      outputSchema: { count: z.number() },
      annotations: { readOnlyHint: true },
    },
    () => {
      count('countNotes');
      return { content: [{ type: 'text', text: '{"count":3}' }], structuredContent: { count: 3 } };
    },
  );
  server.registerTool('failNote', { description: 'Always fails.' }, () => {
    count('failNote');
    return { content: [{ type: 'text', text: 'The note store is locked.' }], isError: true };
  });
  server.registerTool(
    'slowWrite',
    { description: 'Writes slowly; finishes when the test releases it.', inputSchema: { text: z.string() } },
    async ({ text }) => {
      count('slowWrite');
      await (shared ? shared.released() : released);
      return { content: [{ type: 'text', text: `Wrote ${text}.` }] };
    },
  );
  server.registerTool('addTool', { description: 'Adds the tool `extraTool` (a list change).' }, () => {
    count('addTool');
    server.registerTool('extraTool', { description: 'Added later.', annotations: { readOnlyHint: true } }, () => {
      count('extraTool');
      return { content: [{ type: 'text', text: 'extra' }] };
    });
    return { content: [{ type: 'text', text: 'Added extraTool.' }] };
  });
  server.registerPrompt('summarize', { description: 'Summarize the notes.' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'Summarize my notes.' } }],
  }));
  server.registerPrompt(
    'plan',
    { description: 'Plan a topic.', argsSchema: { topic: z.string(), detail: z.string().optional() } },
    ({ topic, detail }) => ({
      messages: [
        { role: 'user', content: { type: 'text', text: `Plan ${topic}${detail ? ` in ${detail} detail` : ''}.` } },
      ],
    }),
  );
  server.registerResource('first-note', 'note://first', { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: uri.href, text: 'buy milk' }],
  }));
  server.registerResource('dot', 'image://dot', { mimeType: 'image/png' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'image/png', blob: TEST_PNG_BASE64 }],
  }));
  // A resource of two parts: a note and the map it names, each attached as a file of its own.
  server.registerResource('trip', 'note://trip', { mimeType: 'text/markdown' }, (uri) => ({
    contents: [
      { uri: uri.href, mimeType: 'text/markdown', text: '# Trip\nPack the boots.' },
      { uri: 'note://trip/map.png', mimeType: 'image/png', blob: TEST_PNG_BASE64 },
    ],
  }));
  return {
    server,
    calls,
    releaseSlow() {
      release();
      released = new Promise<void>((resolve) => (release = resolve));
    },
  };
}
