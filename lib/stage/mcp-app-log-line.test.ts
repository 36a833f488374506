import { describe, expect, it } from 'vitest';
import { mcpAppLogLine } from './mcp-app-log-line';

describe('mcpAppLogLine', () => {
  it('shows the level, the logger when there is one, and the text', () => {
    expect(mcpAppLogLine({ level: 'warning', logger: 'chart', text: 'No data.' })).toBe('warning chart: No data.');
    expect(mcpAppLogLine({ level: 'info', text: 'Loaded.' })).toBe('info: Loaded.');
  });
});
