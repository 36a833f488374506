import { describe, expect, it } from 'vitest';
import { declaredDisplayModes, resultingDisplayMode } from './mcp-app-display-mode';

describe('the display mode an MCP App gets', () => {
  it('is the mode asked for when the host has it and the app declared it', () => {
    expect(resultingDisplayMode('fullscreen', 'inline', ['inline', 'fullscreen'])).toBe('fullscreen');
    expect(resultingDisplayMode('inline', 'fullscreen', ['inline', 'fullscreen'])).toBe('inline');
  });

  it('stays the mode it is in for a mode the app did not declare, or the host does not have', () => {
    expect(resultingDisplayMode('fullscreen', 'inline', ['inline'])).toBe('inline');
    expect(resultingDisplayMode('fullscreen', 'inline', [])).toBe('inline');
    expect(resultingDisplayMode('pip', 'inline', ['inline', 'pip'])).toBe('inline');
    expect(resultingDisplayMode('pip', 'fullscreen', ['fullscreen', 'pip'])).toBe('fullscreen');
  });

  it('reads only the modes of the spec from what the app declared', () => {
    expect(declaredDisplayModes(['fullscreen', 'maximized', 'inline'])).toEqual(['fullscreen', 'inline']);
    expect(declaredDisplayModes(undefined)).toEqual([]);
  });
});
