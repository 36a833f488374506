import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const TOP_FOLDERS = ['lib', 'entrypoints', 'components', 'tests', 'scripts', 'targets', 'docs', 'public'];
const codePath = new RegExp(`^(${TOP_FOLDERS.join('|')})/[^\\s]*(\\.[a-z]+|/)$`);

/** The repository paths a document names: code spans such as `lib/state/` or `lib/agent/agent-loop.ts`, and links. */
function namedPaths(document: string): string[] {
  const text = readFileSync(resolve(root, document), 'utf8');
  const spans = [...text.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1].replace(/:\d+$/, ''))
    .filter((span) => codePath.test(span) && !/[<>*{}$]/.test(span));
  const links = [...text.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)]
    .map((match) => match[1])
    .filter((link) => !/^[a-z]+:/.test(link))
    .map((link) => resolve(root, dirname(document), link).slice(root.length + 1));
  return [...new Set([...spans, ...links])];
}

describe.each(['README.md', 'docs/architecture.md'])('%s', (document) => {
  it('names only paths that exist', () => {
    const paths = namedPaths(document);
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((path) => !existsSync(resolve(root, path)))).toEqual([]);
  });
});
