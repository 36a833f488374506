import { useEffect, useState } from 'react';
import type { McpResourceDefinition, McpResourcesResult } from '@/lib/protocol/mcp-resource';
import { usePanelActions } from '../shared/panel-actions';

/**
 * The attach menu's MCP part: a button, shown once an enabled server lists resources, that opens the list of
 * them (asked again each time it opens); choosing one attaches it like a picked file.
 */
export function ResourceMenu({ disabled }: { disabled?: boolean }) {
  const { listResources, attachResource } = usePanelActions();
  const [listed, setListed] = useState<McpResourcesResult>();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let current = true;
    listResources().then(
      (result) => current && setListed(result),
      () => current && setListed(undefined),
    );
    return () => {
      current = false;
    };
  }, [listResources, open]);
  if (!listed || (listed.resources.length === 0 && !open)) return null;
  const choose = (resource: McpResourceDefinition) => {
    setOpen(false);
    attachResource(resource);
  };
  return (
    <div className="resource-menu">
      <button
        type="button"
        className="composer-button attach-button resource-button"
        aria-label="Attach an MCP resource"
        title="Attach a resource of your MCP servers"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((was) => !was)}
      >
        @
      </button>
      {open && (
        <ul className="prompt-menu resource-list" role="menu" aria-label="Resources of your MCP servers">
          {listed.resources.map((resource) => (
            <li key={`${resource.serverId} ${resource.uri}`} role="none">
              <button
                type="button"
                role="menuitem"
                data-uri={resource.uri}
                className="resource-item"
                onClick={() => choose(resource)}
              >
                <span className="prompt-command">{resource.name}</span>
                <span className="prompt-description">
                  {resource.uri} · {resource.serverName}
                </span>
              </button>
            </li>
          ))}
          {listed.resources.length === 0 && <li className="prompt-description">No resources.</li>}
          {listed.notes.map((note) => (
            <li key={note} className="prompt-description">
              {note}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
