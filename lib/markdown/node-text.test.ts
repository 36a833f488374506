import { describe, expect, it } from 'vitest';
import { codeLanguage, nodeText } from './node-text';

describe('nodeText', () => {
  it('joins the text of nested elements (highlighted spans included)', () => {
    const code = {
      type: 'element',
      children: [
        { type: 'element', children: [{ type: 'text', value: 'const' }] },
        { type: 'text', value: ' a = 1;\n' },
      ],
    };
    expect(nodeText({ type: 'element', children: [code] })).toBe('const a = 1;\n');
    expect(nodeText(undefined)).toBe('');
  });
});

describe('codeLanguage', () => {
  it('reads the language class', () => {
    expect(codeLanguage(['hljs', 'language-ts'])).toBe('ts');
    expect(codeLanguage('language-python')).toBe('python');
    expect(codeLanguage(undefined)).toBeUndefined();
  });
});
