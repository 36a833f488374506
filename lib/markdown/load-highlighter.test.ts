import { describe, expect, it } from 'vitest';
import { hasLabelledFence, loadedHighlighter, loadHighlighter } from './load-highlighter';

describe('loadHighlighter', () => {
  it('is not loaded before it is asked for, and gives the highlighting plugin once loaded', async () => {
    expect(loadedHighlighter()).toBeUndefined();
    const plugin = await loadHighlighter();
    expect(loadedHighlighter()).toBe(plugin);
    expect(await loadHighlighter()).toBe(plugin);
  });
});

describe('hasLabelledFence', () => {
  it('finds fenced code that names a language, and only that', () => {
    expect(hasLabelledFence('Look:\n```ts\nconst a = 1;\n```')).toBe(true);
    expect(hasLabelledFence('~~~python\nprint(1)\n~~~')).toBe(true);
    expect(hasLabelledFence('   ``` js\nx\n```')).toBe(true);
    expect(hasLabelledFence('```\nplain\n```')).toBe(false);
    expect(hasLabelledFence('Inline `code` and ```ts``` in a line.')).toBe(false);
    expect(hasLabelledFence('No code at all.')).toBe(false);
  });
});
