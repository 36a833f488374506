import { describe, expect, it } from 'vitest';
import { RELAYED_BODY_LIMIT } from '../protocol/relayed-fetch-wire';
import { MCP_APP_HOST_SOURCE, mcpAppFetchResultSchema, mcpAppHostMessageSchema } from '../protocol/mcp-app-wire';
import { relayedFetch } from './relayed-fetch';

const allowed = (url: string) => (url.startsWith('http://127.0.0.1:9000/') ? 'http://127.0.0.1:9000' : undefined);

function recordingFetch(response: Response) {
  const seen: { url: string; init: RequestInit | undefined }[] = [];
  const fetchImpl = ((url: string, init?: RequestInit) => {
    seen.push({ url, init });
    return Promise.resolve(response);
  }) as typeof fetch;
  return { seen, fetchImpl };
}

describe('relayedFetch', () => {
  it('refuses an origin that is not allowed without making the request', async () => {
    const { seen, fetchImpl } = recordingFetch(new Response('no'));
    const request = { url: 'http://127.0.0.1:9001/data', method: 'GET' } as const;
    expect(await relayedFetch(request, allowed, 'Not granted.', fetchImpl)).toEqual({ error: 'Not granted.' });
    expect(seen).toEqual([]);
  });

  it('makes an allowed request without cookies, referrer or redirects, and cuts the body to the limit', async () => {
    const big = 'x'.repeat(RELAYED_BODY_LIMIT + 10);
    const { seen, fetchImpl } = recordingFetch(
      new Response(big, { status: 201, statusText: 'Created', headers: { 'content-type': 'text/plain' } }),
    );
    const request = {
      url: 'http://127.0.0.1:9000/data',
      method: 'POST',
      contentType: 'application/json',
      body: '{}',
    } as const;
    const answer = await relayedFetch(request, allowed, 'Not granted.', fetchImpl);
    expect(seen[0]?.init).toMatchObject({
      method: 'POST',
      credentials: 'omit',
      redirect: 'error',
      referrerPolicy: 'no-referrer',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer).toMatchObject({ response: { status: 201, statusText: 'Created', contentType: 'text/plain' } });
    expect('response' in answer && answer.response.body.length).toBe(RELAYED_BODY_LIMIT);
  });

  it('answers a failed request with its error', async () => {
    const fetchImpl = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    const request = { url: 'http://127.0.0.1:9000/x', method: 'GET' } as const;
    expect(await relayedFetch(request, allowed, 'No.', fetchImpl)).toEqual({ error: 'Failed to fetch' });
  });
});

describe('the MCP App relay wire', () => {
  const request = {
    source: MCP_APP_HOST_SOURCE,
    type: 'fetch',
    id: 'r1',
    url: 'http://127.0.0.1:9000/',
    method: 'GET',
  };

  it('takes the methods it relays, within the size caps, and no others', () => {
    const accepts = (message: object) => mcpAppHostMessageSchema.safeParse({ ...request, ...message }).success;
    expect(accepts({})).toBe(true);
    expect(accepts({ method: 'POST', body: 'a' })).toBe(true);
    expect(accepts({ method: 'OPTIONS' })).toBe(false);
    expect(accepts({ method: 'CONNECT' })).toBe(false);
    expect(accepts({ url: 'h'.repeat(4001) })).toBe(false);
    expect(accepts({ method: 'POST', body: 'x'.repeat(RELAYED_BODY_LIMIT + 1) })).toBe(false);
  });

  it('takes an answer only from the stage, within the cap', () => {
    const answer = { source: 'splitbrain:mcp-app-stage', type: 'fetch-result', id: 'r1' };
    expect(mcpAppFetchResultSchema.safeParse({ ...answer, error: 'refused' }).success).toBe(true);
    expect(mcpAppFetchResultSchema.safeParse({ ...answer, source: MCP_APP_HOST_SOURCE }).success).toBe(false);
    const response = {
      status: 200,
      statusText: 'OK',
      contentType: 'text/plain',
      body: 'x'.repeat(RELAYED_BODY_LIMIT + 1),
    };
    expect(mcpAppFetchResultSchema.safeParse({ ...answer, response }).success).toBe(false);
  });
});
