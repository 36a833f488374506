import type { StageReportMessage } from '@/lib/protocol/runtime-message';
import { admittedOrigin } from '@/lib/mcp/mcp-app-connect';
import {
  MCP_APP_STAGE_SOURCE,
  mcpAppHostMessageSchema,
  type McpAppFetchResult,
  type McpAppHostMessage,
  type McpAppLoad,
} from '@/lib/protocol/mcp-app-wire';
import type { AppAsks } from '@/lib/stage/app-asks';
import type { CspViolationReports } from '@/lib/stage/csp-violation-reports';
import { McpAppBridge } from '@/lib/stage/mcp-app-bridge';
import { mcpAppFetchRefusal } from '@/lib/stage/mcp-app-fetch-refusal';
import { mcpAppHostContext } from '@/lib/stage/mcp-app-host-context';
import { relayedFetch } from '@/lib/stage/relayed-fetch';
import { mcpAppCsp } from '@/lib/stage/target-csp';
import { saveFiles } from '../shared/browser-downloads';
import { colorScheme } from './color-scheme';
import type { McpAppDisplay } from './mcp-app-display';
import type { McpAppLog } from './mcp-app-log';

export interface McpAppFrameOptions {
  targetId: string;
  frame: HTMLIFrameElement;
  load: McpAppLoad;
  /** The origins the app may reach: declared by its resource and granted by the user. */
  connect: string[];
  asks: AppAsks;
  display: McpAppDisplay;
  log: McpAppLog;
  violations: CspViolationReports;
  report(message: StageReportMessage): void;
  statusLabel: HTMLElement;
}

/**
 * An MCP App in the stage's frame: its host page's own messages (its request for the document, the CSP violations
 * it saw, its relayed fetches), else the app's own, which its bridge answers.
 */
export class McpAppFrame {
  readonly bridge: McpAppBridge;
  private readonly connect: string[];
  private readonly frame: HTMLIFrameElement;
  /** Handed to its host page once when it asks; then undefined. */
  private load: McpAppLoad | undefined;

  constructor(private readonly options: McpAppFrameOptions) {
    this.frame = options.frame;
    this.load = options.load;
    this.connect = options.connect;
    this.bridge = this.openBridge();
  }

  receive(data: unknown): void {
    const parsed = mcpAppHostMessageSchema.safeParse(data);
    if (!parsed.success) {
      this.bridge.receive(data);
      return;
    }
    if (parsed.data.type === 'host-ready') {
      const load = this.load;
      this.load = undefined;
      if (load)
        this.frame.contentWindow?.postMessage(
          {
            source: MCP_APP_STAGE_SOURCE,
            type: 'load',
            html: load.html,
            policy: mcpAppCsp(load.csp.connectDomains, load.grantedConnect),
          },
          '*',
        );
      return;
    }
    if (parsed.data.type === 'fetch') {
      void this.relayFetch(parsed.data).then((result) => this.frame.contentWindow?.postMessage(result, '*'));
      return;
    }
    this.options.violations.report(parsed.data.directive, parsed.data.blockedUrl);
  }

  /**
   * Asks the app to tear down before it goes (`ui/resource-teardown`), waiting at most `waitMs` for its answer;
   * what it answered is kept on the page for the tests.
   */
  async teardown(reason: string, waitMs: number): Promise<void> {
    const outcome = await this.bridge.teardown(reason, waitMs);
    document.documentElement.dataset.appTeardown = outcome;
  }

  /**
   * A fetch the app makes: made only to an origin its resource declared and the user granted, else refused with
   * the reason (and reported as the policy violation it is, as a blocked request of an authored target is).
   */
  private async relayFetch(request: Extract<McpAppHostMessage, { type: 'fetch' }>): Promise<McpAppFetchResult> {
    const answer = { source: MCP_APP_STAGE_SOURCE, type: 'fetch-result', id: request.id } as const;
    const refusal = mcpAppFetchRefusal(request.url, this.connect);
    const relayed = await relayedFetch(request, (url) => admittedOrigin(url, this.connect), refusal);
    if ('error' in relayed && relayed.error === refusal) this.options.violations.report('connect-src', request.url);
    return { ...answer, ...relayed };
  }

  private openBridge(): McpAppBridge {
    const { targetId, frame, load, asks, display, log, report, statusLabel } = this.options;
    return new McpAppBridge({
      app: load,
      post: (message) => frame.contentWindow?.postMessage(message, '*'),
      callTool: (name, input) => {
        const answer = asks.callTool(targetId, name, input);
        document.documentElement.dataset.appCalls = String(this.bridge.record.calls);
        return answer;
      },
      request: (request) => asks.request(targetId, request),
      saveFiles: async (files) => {
        const saved = await saveFiles(files);
        if (!saved.ok)
          report({ type: 'stage/target-error', targetId, message: `The MCP App's download failed: ${saved.error}` });
        return saved.ok;
      },
      onSize: ({ height }) => {
        if (height !== undefined) display.fit(frame, height);
      },
      showIn: (mode) => display.showIn(mode),
      onLog: (entry) => log.show(entry),
      onRefused: (reason) =>
        report({ type: 'stage/target-error', targetId, message: `The MCP App sent something refused: ${reason}` }),
      onInitialized: () => {
        statusLabel.textContent = 'ready';
        document.documentElement.dataset.appResultDelivered = 'true';
      },
      hostContext: mcpAppHostContext(
        {
          theme: colorScheme(),
          locale: navigator.language,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          containerDimensions: display.containerDimensions(),
        },
        load.tool,
      ),
      admittedConnect: this.connect,
    });
  }
}
