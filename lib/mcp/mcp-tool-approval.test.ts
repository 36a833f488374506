import { describe, expect, it } from 'vitest';
import { mcpToolIsReadOnly, mcpToolMode } from './mcp-tool-approval';

const server = { toolModes: {}, alwaysAsk: false };

describe('mcpToolMode', () => {
  it('defaults from the annotations: read-only runs, destructive and unknown ask', () => {
    expect(mcpToolMode(server, 'read', { readOnlyHint: true })).toBe('allow');
    expect(mcpToolMode(server, 'delete', { destructiveHint: true })).toBe('ask');
    expect(mcpToolMode(server, 'append', undefined)).toBe('ask');
  });

  it("follows the user's choice per tool, except that a destructive tool always asks", () => {
    const chosen = { toolModes: { append: 'allow', read: 'ask', delete: 'allow' } as const, alwaysAsk: false };
    expect(mcpToolMode(chosen, 'append', undefined)).toBe('allow');
    expect(mcpToolMode(chosen, 'read', { readOnlyHint: true })).toBe('ask');
    expect(mcpToolMode(chosen, 'delete', { destructiveHint: true })).toBe('ask');
  });

  it('asks for every tool of a server set to always ask', () => {
    expect(mcpToolMode({ toolModes: {}, alwaysAsk: true }, 'read', { readOnlyHint: true })).toBe('ask');
  });

  it('treats only a read-only, non-destructive tool as safe to run again', () => {
    expect(mcpToolIsReadOnly({ readOnlyHint: true })).toBe(true);
    expect(mcpToolIsReadOnly({ readOnlyHint: true, destructiveHint: true })).toBe(false);
    expect(mcpToolIsReadOnly(undefined)).toBe(false);
  });
});
