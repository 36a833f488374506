import { useEffect, useState } from 'react';
import { isAppOriginGranted, type McpAppNetworkAsk } from '@/lib/panel/mcp-app-network';
import type { McpAppGrant } from '@/lib/protocol/mcp-app-grant';
import { usePanelActions } from '../shared/panel-actions';

/** The origins an MCP App asks to reach, each granted or revoked by the user here (also in Settings). */
export function McpAppNetworkGrants({ ask }: { ask: McpAppNetworkAsk }) {
  const actions = usePanelActions();
  const [grants, setGrants] = useState<McpAppGrant[]>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    let current = true;
    void actions.listMcpAppGrants().then((listed) => current && setGrants(listed));
    return () => {
      current = false;
    };
  }, [actions]);
  const toggle = (origin: string, granted: boolean) => {
    const grant = { serverId: ask.serverId, resourceUri: ask.resourceUri, origin };
    void actions.setMcpAppGrant(grant, granted).then(async (message) => {
      setProblem(message);
      setGrants(await actions.listMcpAppGrants());
    });
  };
  return (
    <div className="tool-app-network" aria-label="Network access this app asks for">
      <p className="tool-app-network-title">This app asks to reach:</p>
      <ul>
        {ask.origins.map((origin) => {
          const granted = grants ? isAppOriginGranted(grants, ask, origin) : undefined;
          return (
            <li key={origin} data-app-origin={origin} data-granted={granted ? 'true' : 'false'}>
              <span>{origin}</span>
              {granted && <span className="pill pill-active">Granted</span>}
              <button
                type="button"
                className="button-secondary"
                data-app-grant={origin}
                disabled={granted === undefined}
                onClick={() => toggle(origin, !granted)}
              >
                {granted ? 'Revoke' : 'Grant'}
              </button>
            </li>
          );
        })}
      </ul>
      {problem && <p className="tool-error">{problem}</p>}
    </div>
  );
}
