import { z } from 'zod';

/** Bytes of text a relayed request or response may carry. */
export const RELAYED_BODY_LIMIT = 1_000_000;

/**
 * A sandboxed host page → stage, by window (an authored target's or an MCP App's, told apart by `source`): ready for
 * what it shows, each CSP violation in the frame, and a fetch for the stage to relay (to an origin the user granted,
 * which the stage checks again).
 */
export function hostPageMessageSchema<Source extends string>(source: Source) {
  return z.discriminatedUnion('type', [
    z.object({ source: z.literal(source), type: z.literal('host-ready') }),
    z.object({
      source: z.literal(source),
      type: z.literal('csp-violation'),
      directive: z.string().max(200),
      blockedUrl: z.string().max(2000),
    }),
    z.object({
      source: z.literal(source),
      type: z.literal('fetch'),
      id: z.string().min(1).max(100),
      url: z.string().max(4000),
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']),
      contentType: z.string().max(200).optional(),
      body: z.string().max(RELAYED_BODY_LIMIT).optional(),
    }),
  ]);
}

/** The stage's answer to a relayed fetch, from `source`: the response as text, or why there is none. */
export function fetchResultSchema<Source extends string>(source: Source) {
  return z.object({
    source: z.literal(source),
    type: z.literal('fetch-result'),
    id: z.string().min(1).max(100),
    response: z
      .object({
        status: z.number().int(),
        statusText: z.string().max(200),
        contentType: z.string().max(200),
        body: z.string().max(RELAYED_BODY_LIMIT),
      })
      .optional(),
    error: z.string().max(2000).optional(),
  });
}
