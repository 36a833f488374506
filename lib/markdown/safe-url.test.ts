import { describe, expect, it } from 'vitest';
import { markdownUrlTransform, safeImageUrl, safeLinkUrl, urlHost } from './safe-url';

describe('safeLinkUrl', () => {
  it('keeps http, https and mailto links', () => {
    expect(safeLinkUrl('https://example.org/a?b=1#c')).toBe('https://example.org/a?b=1#c');
    expect(safeLinkUrl('http://localhost:11434/v1')).toBe('http://localhost:11434/v1');
    expect(safeLinkUrl('mailto:someone@example.org')).toBe('mailto:someone@example.org');
    expect(safeLinkUrl('  HTTPS://Example.org  ')).toBe('https://example.org/');
  });

  it('keeps in-message fragments (footnotes)', () => {
    expect(safeLinkUrl('#user-content-fn-1')).toBe('#user-content-fn-1');
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    ' javascript:alert(1)',
    '\u0000javascript:alert(1)',
    'jav&#x09;ascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'chrome-extension://abc/options.html',
    'blob:https://example.org/uuid',
    '/sidepanel.html',
    'options.html',
    '//evil.example/x',
    '',
    'https://',
  ])('blocks %j', (value) => {
    expect(safeLinkUrl(value)).toBeUndefined();
  });
});

describe('safeImageUrl', () => {
  it('allows only absolute http(s) sources', () => {
    expect(safeImageUrl('https://images.example/cat.png')).toBe('https://images.example/cat.png');
    expect(safeImageUrl('mailto:a@b.c')).toBeUndefined();
    expect(safeImageUrl('data:image/png;base64,AAAA')).toBeUndefined();
    expect(safeImageUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeImageUrl('cat.png')).toBeUndefined();
  });
});

describe('markdownUrlTransform', () => {
  it('applies the image rules to img src and the link rules elsewhere', () => {
    expect(markdownUrlTransform('mailto:a@b.c', 'src', { tagName: 'img' })).toBe('');
    expect(markdownUrlTransform('mailto:a@b.c', 'href', { tagName: 'a' })).toBe('mailto:a@b.c');
    expect(markdownUrlTransform('javascript:void(0)', 'href', { tagName: 'a' })).toBe('');
  });
});

describe('urlHost', () => {
  it('names the host, port included', () => {
    expect(urlHost('https://tracker.example:8443/pixel.gif?user=1')).toBe('tracker.example:8443');
  });
});
