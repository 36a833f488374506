import { describe, expect, it } from 'vitest';
import { stageOpenRefusal, stageSendRefusal } from './stage-command-refusals';

// Node's URL gives an extension scheme the origin "null" where a browser gives it its own, so the extension's own
// pages are left to the end-to-end tests.
const extensionOrigin = 'chrome-extension://abcdef';

describe('stageOpenRefusal', () => {
  it('loads the web', () => {
    expect(stageOpenRefusal('https://example.com/app', extensionOrigin)).toBeUndefined();
    expect(stageOpenRefusal('http://127.0.0.1:8080/', extensionOrigin)).toBeUndefined();
  });

  it('refuses any other scheme', () => {
    expect(stageOpenRefusal('data:text/html,<p>x</p>', extensionOrigin)).toBe(
      'Refusing to load a target from data:text/html,<p>x</p>.',
    );
    expect(stageOpenRefusal('file:///etc/passwd', extensionOrigin)).toBe(
      'Refusing to load a target from file:///etc/passwd.',
    );
  });
});

describe('stageSendRefusal', () => {
  it('sends to the target shown', () => {
    expect(stageSendRefusal({ targetId: 'counter', preview: false, isApp: false }, 'counter')).toBeUndefined();
  });

  it('refuses an MCP App', () => {
    expect(stageSendRefusal({ targetId: 'app', preview: false, isApp: true }, 'app')).toBe(
      'An MCP App takes no target commands.',
    );
  });

  it('refuses a target not shown, or shown as a preview', () => {
    const refusal = 'Target "counter" is not open in the stage.';
    expect(stageSendRefusal(undefined, 'counter')).toBe(refusal);
    expect(stageSendRefusal({ targetId: 'other', preview: false, isApp: false }, 'counter')).toBe(refusal);
    expect(stageSendRefusal({ targetId: 'other', preview: false, isApp: true }, 'counter')).toBe(refusal);
    expect(stageSendRefusal({ targetId: 'counter', preview: true, isApp: false }, 'counter')).toBe(refusal);
  });
});
