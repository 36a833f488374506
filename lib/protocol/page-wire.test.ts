import { describe, expect, it } from 'vitest';
import { pageActResultSchema, pageReplySchemaFor, pageRequestSchema } from './page-wire';

const expected = {
  documentId: 'd1',
  modal: { open: false },
  viewport: { width: 800, height: 600, scrollX: 0, scrollY: 0, devicePixelRatio: 1, visualScale: 1 },
  ref: { role: 'button', name: 'Submit' },
};

describe('page wire', () => {
  it('accepts an act request with a ref target and a wait condition', () => {
    const parsed = pageRequestSchema.safeParse({
      type: 'page/act',
      action: 'click',
      target: { kind: 'ref', ref: 'e12' },
      expected,
      waitFor: { kind: 'text-appears', text: 'Saved', timeoutMs: 2000 },
    });
    expect(parsed.success).toBe(true);
  });

  it('refuses a frame-prefixed ref: the runtime strips the prefix before sending', () => {
    const parsed = pageRequestSchema.safeParse({
      type: 'page/act',
      action: 'click',
      target: { kind: 'ref', ref: 'f1e12' },
      expected,
    });
    expect(parsed.success).toBe(false);
  });

  it('refuses an unknown request type and an unbounded observation budget', () => {
    expect(pageRequestSchema.safeParse({ type: 'page/eval', code: '1' }).success).toBe(false);
    expect(pageRequestSchema.safeParse({ type: 'page/observe', maxTokens: 1_000_000 }).success).toBe(false);
  });

  it('types each reply by its request and keeps a WAIT_TIMEOUT hit', () => {
    const reply = pageReplySchemaFor['page/act'].safeParse({
      type: 'page/act-result',
      ok: false,
      code: 'WAIT_TIMEOUT',
      reason: 'no "Saved" within 2000 ms',
      hit: { ref: 'e12', role: 'button', name: 'Submit', tag: 'button', box: { x: 1, y: 2, width: 3, height: 4 } },
      waited: { condition: 'text-appears "Saved"', met: false, ms: 2000 },
    });
    expect(reply.success).toBe(true);
    expect(pageActResultSchema.safeParse({ type: 'page/act-result', ok: true }).success).toBe(false);
  });
});
