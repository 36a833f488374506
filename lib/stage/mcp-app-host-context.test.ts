import { describe, expect, it } from 'vitest';
import { mcpAppHostContext } from './mcp-app-host-context';

describe('mcpAppHostContext', () => {
  it('opens the app inline in the stage, with the modes this host has and the tool that opened it', () => {
    const tool = { name: 'show_chart', inputSchema: { type: 'object' } };
    const surroundings = {
      theme: 'dark' as const,
      locale: 'de-CH',
      timeZone: 'Europe/Zurich',
      containerDimensions: { width: 800, maxHeight: 4000 },
    };
    expect(mcpAppHostContext(surroundings, tool)).toEqual({
      theme: 'dark',
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen'],
      platform: 'web',
      locale: 'de-CH',
      timeZone: 'Europe/Zurich',
      userAgent: 'splitbrain',
      containerDimensions: { width: 800, maxHeight: 4000 },
      toolInfo: { tool },
    });
  });
});
