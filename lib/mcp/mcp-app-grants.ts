import type { McpAppGrant } from '../protocol/mcp-app-grant';
import type { McpAppLoad } from '../protocol/mcp-app-wire';
import { admittedConnect } from './mcp-app-connect';
import type { McpAppGrantStore } from './mcp-app-grant-store';

/** How an MCP App was put on the stage, to put it there again. */
export interface McpAppShowing {
  targetId: string;
  title: string;
  url: string;
  app: McpAppLoad;
  /** The tool call that opened it, so an app served again after a worker restart still answers that call. */
  callKey?: string;
}

export interface McpAppStage {
  openMcpApp(open: McpAppShowing): Promise<void>;
  activeTargetId(): Promise<string | undefined>;
}

/**
 * The user's network grants to MCP Apps, and their effect: a change to the app open in the stage reopens it with
 * the origins it is now admitted to (its resource's declared ones that are granted), as an authored target reloads.
 */
export class McpAppGrants {
  private shown: { serverId: string; showing: McpAppShowing } | undefined;

  constructor(
    private readonly store: McpAppGrantStore,
    private readonly stage: McpAppStage,
  ) {}

  list(): Promise<McpAppGrant[]> {
    return this.store.list();
  }

  granted(serverId: string, resourceUri: string): Promise<string[]> {
    return this.store.granted(serverId, resourceUri);
  }

  /** Notes the app just shown in the stage. */
  shownApp(serverId: string, showing: McpAppShowing): void {
    this.shown = { serverId, showing };
  }

  async set(grant: McpAppGrant, granted: boolean): Promise<McpAppGrant[]> {
    const grants = await this.store.set(grant, granted);
    await this.reopenIfShown(grant);
    return grants;
  }

  private async reopenIfShown(grant: McpAppGrant): Promise<void> {
    const shown = this.shown;
    if (!shown || shown.serverId !== grant.serverId || shown.showing.app.resourceUri !== grant.resourceUri) return;
    if ((await this.stage.activeTargetId()) !== shown.showing.targetId) return;
    const { app } = shown.showing;
    const granted = await this.store.granted(grant.serverId, grant.resourceUri);
    const showing = {
      ...shown.showing,
      app: { ...app, grantedConnect: admittedConnect(app.csp.connectDomains, granted) },
    };
    this.shown = { serverId: shown.serverId, showing };
    await this.stage.openMcpApp(showing);
  }
}
