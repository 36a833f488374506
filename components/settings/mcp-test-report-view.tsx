import type { McpTestReport } from '@/lib/mcp/mcp-test-report';

const hintLabels = { 'read-only': 'read-only', destructive: 'destructive', unknown: 'no hint' } as const;

/** What "Test connection" found: the server's name and version, its tools, resources and prompts, or the failure. */
export function McpTestReportView({ report }: { report: McpTestReport | { problem: string } }) {
  if ('problem' in report) {
    return (
      <p className="connection-check" data-ok="false">
        {report.problem}
      </p>
    );
  }
  if (!report.ok) {
    return (
      <p className="connection-check" data-ok="false">
        ✗ {report.error}
      </p>
    );
  }
  return (
    <ul aria-label="Connection test results" className="mcp-report">
      <li className="connection-check" data-ok="true">
        <strong>✓ Server:</strong> {report.name} {report.version}
      </li>
      <li className="connection-check" data-ok="true">
        <strong>Tools ({report.tools.length}):</strong>{' '}
        {report.tools.map((tool) => `${tool.name} (${hintLabels[tool.hint]})`).join(', ') || 'none'}
      </li>
      <li className="connection-check" data-ok="true">
        <strong>Resources ({report.resources.length}):</strong> {report.resources.join(', ') || 'none'}
      </li>
      <li className="connection-check" data-ok="true">
        <strong>Prompts ({report.prompts.length}):</strong> {report.prompts.join(', ') || 'none'}
      </li>
      {report.notes.map((note) => (
        <li key={note} className="connection-check" data-ok="false">
          {note}
        </li>
      ))}
    </ul>
  );
}
