import type { McpAppLogEntry } from './mcp-app-bridge';

/** One line of an app's log as the stage bar shows it: its level, its logger if it named one, and its text. */
export function mcpAppLogLine(entry: McpAppLogEntry): string {
  return `${entry.level}${entry.logger ? ` ${entry.logger}` : ''}: ${entry.text}`;
}
