import type { McpAppGrant } from '@/lib/protocol/mcp-app-grant';

export interface McpAppGrantListProps {
  grants: McpAppGrant[] | undefined;
  /** Server ids to names, for the label. */
  serverNames: ReadonlyMap<string, string>;
  onRevoke(grant: McpAppGrant): void;
}

/** The origins the user granted MCP Apps (in the panel, when an app asked), each revocable here. */
export function McpAppGrantList({ grants, serverNames, onRevoke }: McpAppGrantListProps) {
  if (!grants) return null;
  if (grants.length === 0)
    return (
      <p className="site-access-empty">
        No MCP App reaches the network: when an app declares origins, its tool call in the panel asks you.
      </p>
    );
  return (
    <ul className="site-access-list" aria-label="Network access of MCP Apps">
      {grants.map((grant) => (
        <li
          key={`${grant.serverId} ${grant.resourceUri} ${grant.origin}`}
          className="site-access-item"
          data-app-grant={`${grant.serverId} ${grant.resourceUri} ${grant.origin}`}
        >
          <span className="site-access-origin">{grant.origin}</span>
          <span>
            {serverNames.get(grant.serverId) ?? grant.serverId} · {grant.resourceUri}
          </span>
          <button type="button" className="link-button" onClick={() => onRevoke(grant)}>
            Revoke
          </button>
        </li>
      ))}
    </ul>
  );
}
