import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuesText, issueText } from './issue-text';

const schema = z.object({ edits: z.array(z.object({ find: z.string().min(1) })), count: z.number() });
const failed = schema.safeParse({ edits: [{ find: '' }], count: 'x' });
const issues = failed.success ? [] : failed.error.issues;

describe('issueText', () => {
  it('writes a dotted path and the message', () => {
    expect(issueText(issues[0])).toBe('edits.0.find: Too small: expected string to have >=1 characters');
  });

  it('writes a JSON Pointer when asked', () => {
    expect(issueText(issues[0], { path: 'pointer' })).toBe(
      '/edits/0/find: Too small: expected string to have >=1 characters',
    );
    expect(issueText({ path: [], message: 'bad' }, { path: 'pointer' })).toBe('/: bad');
  });

  it('names an empty path only when told what to call it', () => {
    expect(issueText({ path: [], message: 'bad' })).toBe(': bad');
    expect(issueText({ path: [], message: 'bad' }, { root: 'input' })).toBe('input: bad');
    expect(issueText({ path: ['a'], message: 'bad' }, { root: 'input' })).toBe('a: bad');
  });
});

describe('issuesText', () => {
  it('joins every issue with a semicolon', () => {
    expect(issuesText(issues)).toBe(
      'edits.0.find: Too small: expected string to have >=1 characters; count: Invalid input: expected number, received string',
    );
    expect(issuesText([])).toBe('');
  });
});
