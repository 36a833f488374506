/**
 * An MCP App built the way the official ext-apps examples build theirs (basic-server-vanillajs): the SDK's `App`
 * over its `PostMessageTransport` to `window.parent`, handlers set before `connect()`, autoResize on. It is bundled
 * with its dependencies into one inline script at test time (`official-sdk-app-html.ts`), as vite-plugin-singlefile
 * does for the examples. What it receives and the answer of each call it makes are kept in `window.officialApp`
 * for the test to read; each button makes one SDK call.
 */
import {
  App,
  applyDocumentTheme,
  type McpUiHostCapabilities,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

interface OfficialAppRecord {
  connected: boolean;
  connectError?: string;
  hostCapabilities?: McpUiHostCapabilities;
  hostContext?: McpUiHostContext;
  hostInfo?: { name: string; version: string };
  toolInputs: Record<string, unknown>[];
  toolResults: CallToolResult[];
  hostContextChanges: McpUiHostContext[];
  teardowns: number;
  answers: Record<string, { result?: unknown; error?: string }>;
  errors: string[];
}

const record: OfficialAppRecord = {
  connected: false,
  toolInputs: [],
  toolResults: [],
  hostContextChanges: [],
  teardowns: 0,
  answers: {},
  errors: [],
};
(window as unknown as { officialApp: OfficialAppRecord }).officialApp = record;

const show = (id: string, text: string) => {
  document.getElementById(id)!.textContent = text;
};
let count = 0;
let link = '';
/** One half-transparent green pixel, a PNG: what the app shows the model through ui/update-model-context. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const app = new App(
  { name: 'Official SDK counter', version: '1.0.0' },
  { availableDisplayModes: ['inline', 'fullscreen'] },
  { autoResize: true },
);

app.onteardown = async () => {
  record.teardowns += 1;
  return {};
};
app.ontoolinput = ({ arguments: input = {} }) => {
  record.toolInputs.push(input);
  if (typeof input.link === 'string') link = input.link;
  show('input', JSON.stringify(input));
};
app.ontoolresult = (result) => {
  record.toolResults.push(result);
  count = Number((result.structuredContent as { count?: number } | undefined)?.count);
  show('count', String(count));
  const first = result.content[0];
  show('result-text', first?.type === 'text' ? first.text : '');
};
app.onhostcontextchanged = (change) => {
  record.hostContextChanges.push(change);
  if (change.theme) applyDocumentTheme(change.theme);
  show('display-mode', app.getHostContext()?.displayMode ?? '');
};
app.onerror = (error) => void record.errors.push(String(error));

/** Runs one SDK call and keeps its answer (or its error's message) by name. */
async function run(name: string, call: () => Promise<unknown>): Promise<void> {
  show('last-call', `${name}: waiting`);
  try {
    record.answers[name] = { result: await call() };
  } catch (error) {
    record.answers[name] = { error: error instanceof Error ? error.message : String(error) };
  }
  show('last-call', `${name}: done`);
}

const buttons: Record<string, () => Promise<unknown>> = {
  increment: async () => {
    const result = await app.callServerTool({ name: 'incrementCounter', arguments: { by: 1 } });
    count = Number((result.structuredContent as { count?: number } | undefined)?.count);
    show('count', String(count));
    return result;
  },
  message: () =>
    app.sendMessage({ role: 'user', content: [{ type: 'text', text: `The counter app says: count is ${count}.` }] }),
  link: () => app.openLink({ url: link }),
  context: () =>
    app.updateModelContext({
      content: [{ type: 'text', text: `The user is looking at the counter, which shows ${count}.` }],
      structuredContent: { count },
    }),
  'image-context': () =>
    app.updateModelContext({
      content: [
        { type: 'text', text: `The counter at ${count}, drawn.` },
        { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
      ],
    }),
  fullscreen: () => app.requestDisplayMode({ mode: 'fullscreen' }),
  inline: () => app.requestDisplayMode({ mode: 'inline' }),
  pip: () => app.requestDisplayMode({ mode: 'pip' }),
  log: () => app.sendLog({ level: 'info', logger: 'counter', data: `viewed at ${count}` }),
  download: () =>
    app.downloadFile({
      contents: [
        {
          type: 'resource',
          resource: { uri: 'file:///counter.csv', mimeType: 'text/csv', text: `count,note\n${count},café\n` },
        },
        // A resource of the app's own server (the test server's image://dot), which the host reads.
        { type: 'resource_link', uri: 'image://dot', name: 'Counter chart', mimeType: 'image/png' },
      ],
    }),
  resources: () => app.listServerResources(),
};
for (const [name, call] of Object.entries(buttons))
  document.getElementById(name)!.addEventListener('click', () => void run(name, call));

try {
  await app.connect();
  record.hostCapabilities = app.getHostCapabilities();
  record.hostContext = app.getHostContext();
  record.hostInfo = app.getHostVersion();
  const context = app.getHostContext();
  if (context?.theme) applyDocumentTheme(context.theme);
  show('display-mode', context?.displayMode ?? '');
  record.connected = true;
  show('status', 'connected');
} catch (error) {
  record.connectError = error instanceof Error ? error.message : String(error);
  show('status', `connect failed: ${record.connectError}`);
}
