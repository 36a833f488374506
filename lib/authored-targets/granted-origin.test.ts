import { describe, expect, it } from 'vitest';
import { grantedOrigin } from './granted-origin';

const granted = [
  { permission: 'network' as const, origin: 'http://127.0.0.1:9000' },
  { permission: 'clipboard' as const },
];

describe('grantedOrigin', () => {
  it('allows exactly the granted origin', () => {
    expect(grantedOrigin('http://127.0.0.1:9000/data?x=1', granted)).toBe('http://127.0.0.1:9000');
    expect(grantedOrigin('http://127.0.0.1:9001/data', granted)).toBeUndefined();
    expect(grantedOrigin('https://127.0.0.1:9000/data', granted)).toBeUndefined();
    expect(grantedOrigin('http://localhost:9000/', granted)).toBeUndefined();
    expect(grantedOrigin('/relative', granted, 'chrome-extension://abc/artifact-host.html')).toBeUndefined();
    expect(grantedOrigin('not a url', granted)).toBeUndefined();
  });
});
