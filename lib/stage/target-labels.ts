import type { McpAppLoad } from '../protocol/mcp-app-wire';
import type { TargetArtifactLoad } from '../protocol/target-artifact-wire';

/** The stage bar's title of a target: an authored target's version, an app's server, else the target's title. */
export function targetTitle(
  title: string,
  opened: { artifact?: Pick<TargetArtifactLoad, 'version'>; preview: boolean; app?: Pick<McpAppLoad, 'serverName'> },
): string {
  const { artifact, preview, app } = opened;
  if (artifact) return `${title} · v${artifact.version}${preview ? ' (superseded)' : ''} · made in this conversation`;
  return app ? `${title} · MCP App of ${app.serverName}` : title;
}

/** The stage bar's list of what an authored target was granted, or the origins an app was admitted to. */
export function targetGrantsText(
  artifact: Pick<TargetArtifactLoad, 'granted'> | undefined,
  appConnect: readonly string[],
): string {
  if (artifact?.granted.length)
    return `Granted: ${artifact.granted.map((grant) => (grant.origin ? `${grant.permission} ${grant.origin}` : grant.permission)).join(', ')}`;
  return appConnect.length > 0 ? `Granted: network ${appConnect.join(', ')}` : '';
}
