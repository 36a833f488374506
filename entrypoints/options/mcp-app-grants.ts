import { useEffect, useState } from 'react';
import { MCP_APP_GRANTS_KEY } from '@/lib/mcp/mcp-app-grant-store';
import type { McpAppGrant } from '@/lib/protocol/mcp-app-grant';
import { callRuntime } from '../shared/call-runtime';
import { extensionKeyValueStore } from '../shared/extension-key-value-store';

/** The MCP Apps' network grants, kept current; a revoke goes through the runtime, which reopens an app it shows. */
export function useMcpAppGrants(): { grants: McpAppGrant[] | undefined; revoke(grant: McpAppGrant): void } {
  const [grants, setGrants] = useState<McpAppGrant[]>();
  useEffect(() => {
    const refresh = () => void callRuntime({ type: 'mcp-app/grants' }).then((listed) => setGrants(listed.grants));
    refresh();
    extensionKeyValueStore.onChange(MCP_APP_GRANTS_KEY, refresh);
  }, []);
  return {
    grants,
    revoke: (grant) =>
      void callRuntime({ type: 'mcp-app/grant', grant, granted: false }).then((answer) => setGrants(answer.grants)),
  };
}
