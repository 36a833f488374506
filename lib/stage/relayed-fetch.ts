import { errorText } from '../protocol/error-text';
import { RELAYED_BODY_LIMIT } from '../protocol/relayed-fetch-wire';

/** A request a sandboxed frame asks the stage to make for it (already validated by its wire schema). */
export interface RelayedRequest {
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  contentType?: string;
  body?: string;
}

export type RelayedAnswer =
  { response: { status: number; statusText: string; contentType: string; body: string } } | { error: string };

/**
 * Makes a frame's request when `allowed` names its origin: no cookies, no referrer, no redirects (one could leave
 * the origin), the response cut to the relay's limit. Anything else is refused with `refusal`.
 */
export async function relayedFetch(
  request: RelayedRequest,
  allowed: (url: string) => string | undefined,
  refusal: string,
  fetchImpl: typeof fetch = fetch,
): Promise<RelayedAnswer> {
  if (!allowed(request.url)) return { error: refusal };
  try {
    const response = await fetchImpl(request.url, {
      method: request.method,
      credentials: 'omit',
      redirect: 'error',
      referrerPolicy: 'no-referrer',
      ...(request.contentType ? { headers: { 'content-type': request.contentType } } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    const body = (await response.text()).slice(0, RELAYED_BODY_LIMIT);
    return {
      response: {
        status: response.status,
        statusText: response.statusText.slice(0, 200),
        contentType: (response.headers.get('content-type') ?? '').slice(0, 200),
        body,
      },
    };
  } catch (error) {
    return { error: errorText(error).slice(0, 2000) };
  }
}
