import { describe, expect, it } from 'vitest';
import { isMcpToolName, mcpToolName } from './mcp-tool-name';

describe('mcpToolName', () => {
  it('namespaces a tool by its server', () => {
    expect(mcpToolName('notes', 'readNote')).toBe('mcp_notes_readNote');
  });

  it('keeps long and odd names within 64 characters of [a-zA-Z0-9_-], distinct and stable', () => {
    const long = mcpToolName('notes', 'x'.repeat(100));
    const other = mcpToolName('notes', `${'x'.repeat(99)}y`);
    const dotted = mcpToolName('notes', 'notes.read');
    for (const name of [long, other, dotted]) {
      expect(name.length).toBeLessThanOrEqual(64);
      expect(isMcpToolName(name)).toBe(true);
    }
    expect(long).not.toBe(other);
    expect(dotted).not.toBe(mcpToolName('notes', 'notes_read'));
    expect(mcpToolName('notes', 'x'.repeat(100))).toBe(long);
  });
});
