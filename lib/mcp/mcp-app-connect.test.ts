import { describe, expect, it } from 'vitest';
import { admittedConnect, admittedOrigin, connectOrigin, declaredOrigins } from './mcp-app-connect';

describe('MCP App connect origins', () => {
  it('reads http and https origins from declared domains, and nothing else', () => {
    expect(connectOrigin('https://api.example.com/v1')).toBe('https://api.example.com');
    expect(connectOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(connectOrigin('https://*.example.com')).toBeUndefined();
    expect(connectOrigin('wss://api.example.com')).toBeUndefined();
    expect(connectOrigin('api.example.com')).toBeUndefined();
    expect(declaredOrigins(['https://a.test/x', 'https://a.test', 'ftp://b.test'])).toEqual(['https://a.test']);
  });

  it('admits only origins both declared and granted', () => {
    const declared = ['https://a.test', 'http://127.0.0.1:9000'];
    expect(admittedConnect(declared, [])).toEqual([]);
    expect(admittedConnect(declared, ['https://a.test'])).toEqual(['https://a.test']);
    // Granted but not declared (a grant made for another resource, or a stored one the resource dropped): not admitted.
    expect(admittedConnect(declared, ['https://c.test', 'http://127.0.0.1:9001'])).toEqual([]);
    expect(admittedConnect([], ['https://a.test'])).toEqual([]);
  });

  it('matches a request URL by exact origin', () => {
    const admitted = ['http://127.0.0.1:9000'];
    expect(admittedOrigin('http://127.0.0.1:9000/data?x=1', admitted)).toBe('http://127.0.0.1:9000');
    expect(admittedOrigin('http://127.0.0.1:9001/data', admitted)).toBeUndefined();
    expect(admittedOrigin('http://localhost:9000/data', admitted)).toBeUndefined();
    expect(admittedOrigin('not a url', admitted)).toBeUndefined();
  });
});
