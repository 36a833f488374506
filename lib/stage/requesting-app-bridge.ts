import type { McpAppFromHostMessage, McpAppLoad } from '../protocol/mcp-app-wire';
import type { McpAppRequest, McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import type { AppDownloadFile } from './app-download-files';
import { McpAppBridge } from './mcp-app-bridge';

/** A counter app of a server named "Apps", as the bridge's request tests open it. */
export const COUNTER_APP: McpAppLoad = {
  resourceUri: 'ui://counter/app.html',
  serverName: 'Apps',
  html: '<p>app</p>',
  csp: { connectDomains: [], resourceDomains: [] },
  grantedConnect: [],
  tool: { name: 'showCounter', inputSchema: { type: 'object' } },
  input: {},
  result: { content: [] },
};

export interface RequestingBridgeSetup {
  /** The runtime's answer to each request; without it, the stage serves no requests at all. */
  answer?: (request: McpAppRequest) => McpAppToolAnswer | Promise<McpAppToolAnswer>;
  /** Whether the stage saves the files; without it, the stage cannot save at all. */
  saves?: boolean;
}

/** A bridge for `COUNTER_APP`, initialized, recording what it posts, asks the runtime and saves (for unit tests). */
export function requestingAppBridge({ answer, saves }: RequestingBridgeSetup) {
  const posted: McpAppFromHostMessage[] = [];
  const requests: McpAppRequest[] = [];
  const saved: AppDownloadFile[][] = [];
  const host = new McpAppBridge({
    app: COUNTER_APP,
    post: (message) => posted.push(message),
    callTool: () => Promise.resolve({ result: {} }),
    ...(answer
      ? {
          request: (request: McpAppRequest) => {
            requests.push(request);
            return Promise.resolve(answer(request));
          },
        }
      : {}),
    ...(saves === undefined
      ? {}
      : {
          saveFiles: (files: AppDownloadFile[]) => {
            saved.push(files);
            return Promise.resolve(saves);
          },
        }),
    onSize: () => undefined,
    onRefused: () => undefined,
    onInitialized: () => undefined,
    hostContext: {},
  });
  host.receive({ jsonrpc: '2.0', id: 0, method: 'ui/initialize', params: {} });
  host.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
  return { host, posted, requests, saved };
}
