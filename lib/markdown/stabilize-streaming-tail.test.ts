import { describe, expect, it } from 'vitest';
import { stabilizeStreamingTail } from './stabilize-streaming-tail';

const source = (tail: string) => stabilizeStreamingTail(tail).source;

describe('stabilizeStreamingTail', () => {
  it('closes an open code fence with the same marker', () => {
    expect(stabilizeStreamingTail('```js\nconst a = 1;')).toEqual({
      source: '```js\nconst a = 1;\n```',
      openFence: true,
    });
    expect(stabilizeStreamingTail('~~~~\nx\n')).toEqual({ source: '~~~~\nx\n~~~~', openFence: true });
    expect(stabilizeStreamingTail('```js\nx\n```\n').openFence).toBe(false);
  });

  it('holds back a line that may become a fence', () => {
    expect(source('Text\n``')).toBe('Text\n');
    expect(source('Text\n`')).toBe('Text\n');
  });

  it('holds back a half-typed table row and a header waiting for its delimiter row', () => {
    expect(source('| a | b |\n|---|---|\n| 1 |')).toBe('| a | b |\n|---|---|\n');
    expect(source('| a | b |\n')).toBe('');
    expect(source('| a | b |\n|---')).toBe('');
    expect(source('| a | b |\n|---|---|\n')).toBe('| a | b |\n|---|---|\n');
    expect(source('| a | b |\n|---|---|\n| 1 | 2 |\n')).toBe('| a | b |\n|---|---|\n| 1 | 2 |\n');
  });

  it('shows an unfinished link as its text, so it is never clickable half-typed', () => {
    expect(source('See [the docs](https://exa')).toBe('See the docs');
    expect(source('See [the do')).toBe('See the do');
    expect(source('See [the docs]')).toBe('See the docs');
    expect(source('See [x](javascript:alert(1')).toBe('See x');
    expect(source('See [the docs](https://example.org)')).toBe('See [the docs](https://example.org)');
  });

  it('drops an unfinished image', () => {
    expect(source('Look ![a cat](https://img.exa')).toBe('Look ');
    expect(source('Look ![a ca')).toBe('Look ');
  });

  it('closes bold, strikethrough and inline code, and drops a dangling opener', () => {
    expect(source('This is **very')).toBe('This is **very**');
    expect(source('This is **')).toBe('This is');
    expect(source('Use `npm i')).toBe('Use `npm i`');
    expect(source('Use `')).toBe('Use ');
    expect(source('~~old')).toBe('~~old~~');
    expect(source('**done** and more')).toBe('**done** and more');
  });

  it('leaves complete text alone', () => {
    expect(source('Hello *world*.\nNext line')).toBe('Hello *world*.\nNext line');
  });
});
