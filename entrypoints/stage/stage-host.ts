import { admittedConnect } from '@/lib/mcp/mcp-app-connect';
import type { JsonObject } from '@/lib/protocol/json-value';
import type { StageCommandMessage, StageReportMessage } from '@/lib/protocol/runtime-message';
import type { StageCommand } from '@/lib/protocol/target-wire';
import type { AppAsks } from '@/lib/stage/app-asks';
import { CspViolationReports } from '@/lib/stage/csp-violation-reports';
import type { ShownTarget } from '@/lib/stage/stage-call-record';
import { TargetChannel } from '@/lib/stage/target-channel';
import { targetGrantsText, targetTitle } from '@/lib/stage/target-labels';
import { AuthoredTargetFrame } from './authored-target-frame';
import type { DisplayedApp, McpAppDisplay } from './mcp-app-display';
import { McpAppFrame } from './mcp-app-frame';
import type { McpAppLog } from './mcp-app-log';
import type { StageElements } from './stage-elements';
import { createTargetFrame } from './target-frame';

const TARGET_TIMEOUT_MS = 15_000;
/** How long the stage waits for an app to answer `ui/resource-teardown` before it removes it anyway. */
export const TEARDOWN_WAIT_MS = 3_000;

export type StageOpenCommand = Extract<StageCommandMessage, { type: 'stage/open' }>;

interface Hosted {
  targetId: string;
  frame: HTMLIFrameElement;
  channel: TargetChannel;
  /** An older version the user opened to look at; the runtime sends it no commands. */
  preview: boolean;
  authored?: AuthoredTargetFrame;
  app?: McpAppFrame;
}

export interface StageHostOptions {
  elements: StageElements;
  asks: AppAsks;
  display: McpAppDisplay;
  log: McpAppLog;
  report(message: StageReportMessage): void;
}

/** The one target the stage shows: its frame, the messages from that frame, and its replacement by the next. */
export class StageHost {
  private hosted: Hosted | undefined;

  constructor(private readonly options: StageHostOptions) {}

  get shown(): ShownTarget | undefined {
    const hosted = this.hosted;
    return hosted && { targetId: hosted.targetId, preview: hosted.preview, isApp: !!hosted.app };
  }

  get currentApp(): DisplayedApp | undefined {
    const hosted = this.hosted;
    return hosted?.app && { frame: hosted.frame, bridge: hosted.app.bridge };
  }

  /** A window message: taken only from the shown target's frame. */
  receive(event: MessageEvent): void {
    const hosted = this.hosted;
    if (!hosted || event.source !== hosted.frame.contentWindow) return;
    if (hosted.app) {
      hosted.app.receive(event.data);
      return;
    }
    if (hosted.authored?.receive(event.data)) return;
    hosted.channel.receive(event.data);
    const { statusLabel } = this.options.elements;
    // Written once: setting the same text again on every message still costs the stage a style and layout pass.
    if (hosted.channel.isReady && statusLabel.textContent !== 'ready') statusLabel.textContent = 'ready';
  }

  /** Sends a command to the target shown; the caller checked that there is one and that it takes commands. */
  send(command: StageCommand): Promise<JsonObject> {
    return this.hosted!.channel.send(command);
  }

  /** Asks the app in the stage, if one is there, to tear down before it goes. */
  teardownApp(reason: string, waitMs: number): Promise<void> {
    return this.hosted?.app?.teardown(reason, waitMs) ?? Promise.resolve();
  }

  retire(): void {
    void this.teardownApp('Another stage tab took over.', TEARDOWN_WAIT_MS);
    this.hosted?.channel.close('Another stage tab took over.');
    this.options.elements.statusLabel.textContent =
      'Another stage tab is in use; this one is no longer driven. You can close it.';
  }

  async open(command: StageOpenCommand): Promise<void> {
    const { targetId, title, url, artifact, mcpApp: app } = command;
    const preview = command.preview ?? false;
    const { elements, asks, display, log, report } = this.options;
    await this.teardownApp('The stage shows another target.', TEARDOWN_WAIT_MS);
    display.reset();
    log.clear();
    this.hosted?.channel.close('The target was replaced by another one.');
    asks.closeAll();
    this.hosted?.frame.remove();
    const frame = createTargetFrame(targetId, url, artifact?.granted, !!app);
    const connect = app ? admittedConnect(app.csp.connectDomains, app.grantedConnect) : [];
    const channel = new TargetChannel({
      post: (message, transfer = []) => frame.contentWindow?.postMessage(message, '*', transfer),
      timeoutMs: TARGET_TIMEOUT_MS,
      newId: () => crypto.randomUUID(),
      onState: (state) => report({ type: 'stage/target-state', targetId, state }),
      onError: (message) => report({ type: 'stage/target-error', targetId, message: message.slice(0, 4000) }),
    });
    const violations = new CspViolationReports(targetId, report);
    const { statusLabel } = elements;
    this.hosted = {
      targetId,
      frame,
      channel,
      preview,
      ...(artifact ? { authored: new AuthoredTargetFrame(frame, artifact, violations) } : {}),
      ...(app
        ? {
            app: new McpAppFrame({
              targetId,
              frame,
              load: app,
              connect,
              asks,
              display,
              log,
              violations,
              report,
              statusLabel,
            }),
          }
        : {}),
    };
    elements.frameHost.replaceChildren(frame);
    elements.titleLabel.textContent = targetTitle(title, { artifact, preview, app });
    elements.grantsLabel.textContent = targetGrantsText(artifact, connect);
    statusLabel.textContent = 'starting…';
    document.title = `${title} · Splitbrain stage`;
  }
}
