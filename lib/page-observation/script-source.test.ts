import { describe, expect, it } from 'vitest';
import { originAndPath, scriptSource, scriptSourceOf } from './script-source';

describe('originAndPath', () => {
  it('keeps origin and path, never the query, the fragment or credentials', () => {
    expect(originAndPath('https://user:secret@shop.example:8443/api/pay?card=4111&token=x#done')).toBe(
      'https://shop.example:8443/api/pay',
    );
    expect(originAndPath('file:///home/ada/report.html?x=1')).toBe('file:///home/ada/report.html');
  });

  it('writes only the scheme of data and javascript addresses, and cuts what does not parse', () => {
    expect(originAndPath(`data:text/html,${'a'.repeat(5000)}`)).toBe('data:');
    expect(originAndPath('javascript:alert(1)')).toBe('javascript:');
    expect(originAndPath('not a url '.repeat(50))).toHaveLength(60);
  });
});

describe('scriptSourceOf', () => {
  it('takes the first frame of a page script from a Chrome or a Firefox stack, without its query', () => {
    const chrome = [
      'Error: Submit failed',
      '    at chrome-extension://abc/content-scripts/page-tools-bridge.js:1:200',
      '    at submit (http://127.0.0.1:4000/app.js?v=3:12:5)',
    ].join('\n');
    expect(scriptSourceOf(chrome)).toBe('http://127.0.0.1:4000/app.js:12:5');
    const firefox =
      'error@moz-extension://abc/content-scripts/page-tools-bridge.js:1:200\nsubmit@https://a.example/x.js:3:9\n';
    expect(scriptSourceOf(firefox)).toBe('https://a.example/x.js:3:9');
  });

  it('gives nothing for a stack without a page frame, or no stack', () => {
    expect(scriptSourceOf('Error\n    at <anonymous>:1:1')).toBeUndefined();
    expect(scriptSourceOf(undefined)).toBeUndefined();
    expect(scriptSource('', 1, 1)).toBeUndefined();
    expect(scriptSource('http://a.example/b.js?q=1', 4, 2)).toBe('http://a.example/b.js:4:2');
  });
});
