import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../protocol/json-value';
import {
  ageToolResults,
  agingPolicyFor,
  batchCut,
  DEFAULT_AGING_POLICY,
  observationBatchCut,
  observationOf,
} from './age-tool-results';

const ONE_IN_FULL = { ...DEFAULT_AGING_POLICY, observationsInFull: 1, screenshotsInFull: 1 };
import { toolResultValue } from './tool-result-value';

function observation(observationId: string, tabId: number, extra: JsonObject = {}): JsonObject {
  return { ok: true, observationId, tabId, url: `https://site.test/${tabId}`, snapshot: 'x'.repeat(4000), ...extra };
}

let calls = 0;
function step(toolName: string, value: JsonValue): ModelMessage[] {
  const toolCallId = `call-${++calls}`;
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName, input: {} }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName, output: { type: 'json', value } }] },
  ];
}

function sentValues(messages: ModelMessage[]): JsonValue[] {
  return messages.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-result' ? [toolResultValue(part.output).value!] : []))
      : [],
  );
}

describe('ageToolResults', () => {
  it('sends only the newest observation of each tab in full, and names what superseded the others', () => {
    const messages = [
      { role: 'user', content: 'go' } as ModelMessage,
      ...step('observePage', observation('o1', 1)),
      ...step('observePage', observation('o2', 2)),
      ...step('actOnPage', { ok: true, hit: 'button', observation: observation('o3', 1) }),
    ];
    const [first, second, third] = sentValues(ageToolResults(messages, ONE_IN_FULL));
    expect(first).toEqual({
      ok: true,
      observationId: 'o1',
      tabId: 1,
      url: 'https://site.test/1',
      superseded:
        'Left out: observation o3 of this tab came after it. Act on the newest observation, or call observePage for the page as it is now.',
    });
    expect(second).toEqual(observation('o2', 2));
    expect(third).toEqual({ ok: true, hit: 'button', observation: observation('o3', 1) });
  });

  it('keeps an action result and stubs only the observation inside it', () => {
    const messages = [
      ...step('actOnPage', {
        ok: true,
        hit: 'link',
        urlAfter: 'https://site.test/b',
        observation: observation('a', 4),
      }),
      ...step('observePage', observation('b', 4)),
    ];
    const [aged] = sentValues(ageToolResults(messages, ONE_IN_FULL)) as JsonObject[];
    expect(aged.hit).toBe('link');
    expect(aged.urlAfter).toBe('https://site.test/b');
    expect((aged.observation as JsonObject).superseded).toContain('observation b');
    expect(aged.observation).not.toHaveProperty('snapshot');
  });

  it('stubs a large result once six results follow it, saying how to read it again', () => {
    const big = { ok: true, jobId: 'job-7', state: 'completed', output: 'y'.repeat(9000) };
    const before = [
      ...step('jobStatus', big),
      ...Array.from({ length: 5 }, () => step('listTargets', { ok: true })).flat(),
    ];
    expect(sentValues(ageToolResults(before))[0]).toEqual(big);
    const after = [...before, ...step('listTargets', { ok: true })];
    expect(sentValues(ageToolResults(after))[0]).toEqual({
      ok: true,
      jobId: 'job-7',
      state: 'completed',
      leftOut: `This result (${JSON.stringify(big).length} characters) was sent in full earlier. Call jobStatus with jobId "job-7" to read it again.`,
    });
  });

  it('stubs observations in batches: up to five of a tab in full, then all but the newest at once', () => {
    const five = Array.from({ length: 5 }, (_, index) => step('observePage', observation(`o${index}`, 1))).flat();
    expect(ageToolResults(five)).toEqual(five);
    const six = [...five, ...step('observePage', observation('o5', 1))];
    const values = sentValues(ageToolResults(six));
    expect(values.filter((value) => observationOf(value) !== undefined)).toEqual([observation('o5', 1)]);
    expect((values[3] as JsonObject).superseded).toContain('observation o4 ');
    expect([0, 1, 4, 5, 8, 9].map((count) => batchCut(count, 4))).toEqual([0, 0, 0, 4, 4, 8]);
  });

  it('keeps fewer pages in full for a smaller window, in batches that never move', () => {
    const page = JSON.stringify(observation('o', 1)).length;
    // A 32k window less its reserve: 40 % of 28,672 tokens hold two snapshots of about 4k tokens (10k characters).
    const policy = agingPolicyFor(28_672);
    const cuts = Array.from({ length: 7 }, (_, count) =>
      observationBatchCut(
        Array.from({ length: count }, () => 10_000),
        policy,
      ),
    );
    expect(cuts).toEqual([0, 0, 0, 2, 2, 4, 4]);
    // A page larger than the whole share still goes in full while it is the newest.
    expect(observationBatchCut([200_000], policy)).toBe(0);
    expect(observationBatchCut([200_000, 200_000], policy)).toBe(1);
    // No limit: five in full at any size, as count alone decides.
    expect(
      observationBatchCut(
        Array.from({ length: 6 }, () => page),
        agingPolicyFor(undefined),
      ),
    ).toBe(5);
  });

  it('counts the batches by the characters each result sends', () => {
    const small = agingPolicyFor(12_000);
    const two = Array.from({ length: 2 }, (_, index) => step('observePage', observation(`s${index}`, 2))).flat();
    // 4,800 tokens of share at 2.5 characters a token: 12,000 characters hold two observations of about 4,100.
    expect(ageToolResults(two, small)).toEqual(two);
    const values = sentValues(ageToolResults([...two, ...step('observePage', observation('s2', 2))], small));
    expect(values.filter((value) => observationOf(value) !== undefined)).toEqual([observation('s2', 2)]);
  });

  it('keeps the images of the newest results that have them, and drops the follow-up images of older ones', () => {
    const withImage = (toolCallId: string): ModelMessage[] => [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName: 'takeShot', input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId,
            toolName: 'takeShot',
            output: { type: 'text', value: `${JSON.stringify({ ok: true, images: ['ref'] })}\nnote` },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: `Images returned by the takeShot call ${toolCallId}:` },
          { type: 'file', data: new Uint8Array([1]), mediaType: 'image/png' },
        ],
      },
    ];
    const aged = ageToolResults([...withImage('s1'), ...withImage('s2'), ...withImage('s3')], {
      ...DEFAULT_AGING_POLICY,
      screenshotsInFull: 2,
    });
    const followUps = aged.filter((message) => message.role === 'user');
    expect(followUps).toHaveLength(1);
    expect(JSON.stringify(followUps[0])).toContain('call s3:');
    expect(sentValues(aged)[0]).toEqual({
      ok: true,
      imagesLeftOut: 'Its images were sent earlier; only the newest screenshots go with a request.',
    });
  });

  it('changes nothing when nothing is old', () => {
    const messages = [...step('observePage', observation('o1', 1)), ...step('getParameters', { ok: true })];
    expect(ageToolResults(messages)).toEqual(messages);
  });

  it('reads observations only from results that carry a snapshot', () => {
    expect(observationOf({ observationId: 'o', tabId: 1 })).toBeUndefined();
    expect(observationOf({ observation: observation('o', 1) })).toEqual({
      observationId: 'o',
      tabId: 1,
      url: 'https://site.test/1',
    });
  });

  it('is deterministic, idempotent, and keeps each request a prefix-stable extension of the one before', () => {
    const action = fc.oneof(
      fc.record({ kind: fc.constant('observe' as const), tab: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('act' as const), tab: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('job' as const), size: fc.integer({ min: 10, max: 20_000 }) }),
    );
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 30 }), (actions) => {
        calls = 0;
        const messages: ModelMessage[] = [{ role: 'user', content: 'task' }];
        let previous: ModelMessage[] = [];
        actions.forEach((next, index) => {
          const id = `o${index}`;
          if (next.kind === 'observe') messages.push(...step('observePage', observation(id, next.tab)));
          else if (next.kind === 'act')
            messages.push(...step('actOnPage', { ok: true, observation: observation(id, next.tab) }));
          else messages.push(...step('runScript', { ok: true, jobId: `j${index}`, output: 'z'.repeat(next.size) }));
          const aged = ageToolResults(messages);
          expect(JSON.stringify(ageToolResults(structuredClone(messages)))).toBe(JSON.stringify(aged));
          expect(JSON.stringify(ageToolResults(aged))).toBe(JSON.stringify(aged));
          // Only results that were in full before may change, and a stub, once made, never changes again.
          previous.forEach((message, position) => {
            const now = JSON.stringify(aged[position]);
            const then = JSON.stringify(message);
            if (now !== then) expect(then.includes('superseded') || then.includes('leftOut')).toBe(false);
          });
          previous = aged;
        });
        const values = sentValues(previous);
        const tabs = new Set(values.flatMap((value) => observationOf(value)?.tabId ?? []));
        for (const tab of tabs) {
          const full = values.filter((value) => observationOf(value)?.tabId === tab);
          expect(full.length).toBeGreaterThanOrEqual(1);
          expect(full.length).toBeLessThanOrEqual(DEFAULT_AGING_POLICY.observationsInFull);
        }
      }),
      { numRuns: 200 },
    );
  });
});
