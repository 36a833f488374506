import type { McpToolMode } from '@/lib/mcp/mcp-server-config';
import type { McpToolHint } from '@/lib/mcp/mcp-tool-approval';

export interface McpToolModesProps {
  /** The tools known: from the last test, and those with a choice saved. */
  tools: { name: string; hint: McpToolHint }[];
  modes: Record<string, McpToolMode>;
  alwaysAsk: boolean;
  onChange(modes: Record<string, McpToolMode>): void;
}

const defaults: Record<McpToolHint, string> = {
  'read-only': 'Default: runs (read-only)',
  unknown: 'Default: asks (no hint)',
  destructive: 'Always asks (destructive)',
};

/** One approval choice per tool; a destructive tool always asks, whatever is chosen. */
export function McpToolModes({ tools, modes, alwaysAsk, onChange }: McpToolModesProps) {
  if (tools.length === 0) {
    return <p className="hint">Test the connection to choose per tool; until then the annotations decide.</p>;
  }
  const choose = (name: string, value: string) => {
    const next = { ...modes };
    if (value === 'ask' || value === 'allow') next[name] = value;
    else delete next[name];
    onChange(next);
  };
  return (
    <>
      <span className="field-label">Approval per tool</span>
      <ul className="mcp-tool-modes" aria-label="Approval per tool">
        {tools.map((tool) => (
          <li key={tool.name} className="site-access-item">
            <span className="site-access-origin">{tool.name}</span>
            <select
              aria-label={`Approval of ${tool.name}`}
              value={tool.hint === 'destructive' ? '' : (modes[tool.name] ?? '')}
              disabled={tool.hint === 'destructive'}
              onChange={(event) => choose(tool.name, event.target.value)}
            >
              <option value="">
                {alwaysAsk && tool.hint !== 'destructive' ? 'Default: asks (server)' : defaults[tool.hint]}
              </option>
              <option value="ask">Ask me every time</option>
              <option value="allow">Run without asking</option>
            </select>
          </li>
        ))}
      </ul>
    </>
  );
}
