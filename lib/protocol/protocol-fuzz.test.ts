import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, agentEventSchema } from './agent-event';
import {
  runtimeRequestSchema,
  stageCommandMessageSchema,
  stageReportMessageSchema,
  subscriberMessageSchema,
} from './runtime-message';
import { stageToTargetMessageSchema, targetToStageMessageSchema } from './target-wire';

const schemas = {
  'stage → target wire': stageToTargetMessageSchema,
  'target → stage wire': targetToStageMessageSchema,
  'runtime requests': runtimeRequestSchema,
  'subscriber messages': subscriberMessageSchema,
  'stage commands': stageCommandMessageSchema,
  'stage reports': stageReportMessageSchema,
  'stored rows (AgentEvent)': agentEventSchema,
};

const validSamples: Record<keyof typeof schemas, unknown> = {
  'stage → target wire': { source: 'splitbrain:stage', type: 'apply', id: 'm1', payload: { speed: 12 } },
  'target → stage wire': { source: 'splitbrain:target', type: 'state', id: 'm1', payload: { speed: 12 } },
  'runtime requests': { type: 'tool/manual', toolName: 'getParameters', input: {} },
  'subscriber messages': { type: 'events/subscribe', sessionId: 's', generation: 1 },
  'stage commands': {
    type: 'stage/send',
    jobId: 'j',
    targetId: 'particles',
    message: { source: 'splitbrain:stage', type: 'read', id: 'j' },
  },
  'stage reports': { type: 'stage/state', jobId: 'j', state: { speed: 1 } },
  'stored rows (AgentEvent)': {
    schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
    type: 'turn/completed',
    sessionId: 's',
    seq: 3,
    time: 1,
    durable: true,
    turnId: 't',
    data: { reason: 'stop' },
  },
};

/** A valid message with one field dropped, retyped or replaced by junk. */
function mutations(sample: Record<string, unknown>) {
  const keys = Object.keys(sample);
  return fc
    .tuple(
      fc.constantFrom(...keys),
      fc.oneof(fc.constant(undefined), fc.anything(), fc.string(), fc.integer(), fc.constant(null)),
    )
    .map(([key, value]) => {
      const copy: Record<string, unknown> = { ...sample };
      if (value === undefined) delete copy[key];
      else copy[key] = value;
      return copy;
    });
}

describe('fuzzed messages on every protocol', () => {
  for (const [name, schema] of Object.entries(schemas) as [
    keyof typeof schemas,
    (typeof schemas)[keyof typeof schemas],
  ][]) {
    it(`${name}: random input never crashes and anything accepted is a well-formed message`, () => {
      let accepted = 0;
      let runs = 0;
      fc.assert(
        fc.property(
          fc.oneof(
            fc.anything({ withNullPrototype: true, withObjectString: true }),
            mutations(validSamples[name] as Record<string, unknown>),
          ),
          (input) => {
            runs += 1;
            const parsed = schema.safeParse(input);
            if (!parsed.success) return;
            accepted += 1;
            expect(schema.safeParse(JSON.parse(JSON.stringify(parsed.data))).success).toBe(true);
          },
        ),
        { numRuns: 2_000 },
      );
      expect(schema.safeParse(validSamples[name]).success).toBe(true);
      console.log(`[fuzz] ${name}: runs=${runs} accepted=${accepted} crashes=0`);
    });
  }
});
