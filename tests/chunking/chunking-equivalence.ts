import { isDeepStrictEqual } from 'node:util';
import { runAgentTurn } from '../../lib/agent/agent-loop';
import type { AgentEventDraft } from '../../lib/protocol/agent-event';
import { toolNamed } from '../../lib/tools/tool-registry';
import { chunkBytes } from '../../scripts/scripted-model-server/chunk-bytes';
import { fixtureScripts } from '../model-server/fixtures/fixture-scripts';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { createLanguageModel } from '../../lib/providers/create-language-model';
import { recordingFetch, replayFetch, type RecordedResponse } from '../support/replay-fetch';
import { scriptedEndpointSettings, type EndpointFormat } from '../support/scripted-endpoint-settings';

/** A draft, or the moment the loop handed a tool call to the browser, in the order they happened. */
type Entry = AgentEventDraft | { type: '(executed)'; toolCallId: string; toolName: string; input: unknown };

export interface FixtureReport {
  fixture: string;
  chunkings: number;
  mismatches: number;
  /** The first difference found, for the failure message. */
  firstMismatch?: string;
  /** Rules broken by the unsplit run itself: U+FFFD, a call run twice or before its step completed. */
  violations: string[];
}

/** Larger than any fixture's reply, so the live run gets each reply in one write rather than a write per few bytes. */
const wholeReplyBytes = 1 << 20;

const ID_KEYS = new Set([
  'sessionId',
  'turnId',
  'stepId',
  'attemptId',
  'itemId',
  'toolCallId',
  'notificationId',
  'userItemId',
]);

/** Ids become their order of first appearance, so provider-made ids (Gemini sends none) compare equal. */
export function normaliseIds(entries: Entry[]): unknown[] {
  const ids = new Map<string, string>();
  const visit = (value: unknown, key?: string): unknown => {
    if (key && ID_KEYS.has(key) && typeof value === 'string') {
      if (!ids.has(value)) ids.set(value, `#${ids.size}`);
      return ids.get(value);
    }
    if (Array.isArray(value)) return value.map((item) => visit(item));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, visit(item, name)]));
    return value;
  };
  return entries.map((entry) => visit(entry));
}

async function runTurn(format: EndpointFormat, origin: string, fetchFunction: typeof fetch): Promise<Entry[]> {
  const entries: Entry[] = [];
  let counter = 0;
  await runAgentTurn({
    model: createLanguageModel(scriptedEndpointSettings(format, origin), { fetch: fetchFunction, chatId: 'chat-1' }),
    sessionId: 'session',
    turnId: 'turn',
    messages: [{ role: 'user', content: 'Make the particles faster.' }],
    emit: (drafts) => entries.push(...drafts),
    flush: async () => undefined,
    executeTool: async (call) => {
      entries.push({ type: '(executed)', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input });
      return { ok: true, tool: call.toolName };
    },
    signal: new AbortController().signal,
    newId: () => `id-${++counter}`,
    now: () => counter,
    wait: async () => undefined,
  });
  return entries;
}

/** What must hold for any chunking: whole characters, and each call run once, after its step completed, with the arguments its preview showed. */
export function ruleViolations(entries: Entry[]): string[] {
  const violations: string[] = [];
  const text = JSON.stringify(entries);
  if (text.includes('\ufffd') || text.includes('\\ufffd')) violations.push('U+FFFD in an event');
  const completedSteps = new Set<string>();
  const executed = new Map<string, number>();
  const previews = new Map<string, string>();
  for (const entry of entries) {
    if (entry.type === 'step/completed') completedSteps.add(entry.stepId);
    if (entry.type === 'tool/input-delta')
      previews.set(entry.toolCallId, (previews.get(entry.toolCallId) ?? '') + entry.data.delta);
    if (entry.type !== '(executed)') continue;
    executed.set(entry.toolCallId, (executed.get(entry.toolCallId) ?? 0) + 1);
    const stepOfCall = entries.find(
      (candidate) => candidate.type === 'tool/input-delta' && candidate.toolCallId === entry.toolCallId,
    ) as AgentEventDraft | undefined;
    if (stepOfCall && 'stepId' in stepOfCall && !completedSteps.has(stepOfCall.stepId))
      violations.push(`${entry.toolCallId} ran before its step completed`);
    const preview = previews.get(entry.toolCallId);
    if (preview === undefined || !isDeepStrictEqual(validated(entry.toolName, JSON.parse(preview)), entry.input))
      violations.push(`${entry.toolCallId} ran with other arguments than its preview showed`);
  }
  for (const [toolCallId, count] of executed) if (count !== 1) violations.push(`${toolCallId} ran ${count} times`);
  return violations;
}

/** The arguments as the tool schema passes them on (unknown keys dropped); as sent when they do not validate. */
function validated(toolName: string, input: unknown): unknown {
  const parsed = toolNamed(toolName)?.inputSchema.safeParse(input);
  return parsed?.success ? parsed.data : input;
}

function firstDifference(expected: unknown[], actual: unknown[]): string {
  const index = expected.findIndex((entry, position) => !isDeepStrictEqual(entry, actual[position]));
  const at = index === -1 ? Math.min(expected.length, actual.length) : index;
  return `entry ${at}: expected ${JSON.stringify(expected[at])}, got ${JSON.stringify(actual[at])} (${expected.length} vs ${actual.length} entries)`;
}

/**
 * For every fixture script: records the real replies of the scripted server in this format, then replays the
 * same bytes whole and in `chunkings` random 1-5 byte cuttings through the real provider, streamText and the
 * mapper, and compares the AgentEvent sequences (ids normalised) with the unsplit one.
 */
export async function checkChunkingEquivalence(format: EndpointFormat, chunkings: number): Promise<FixtureReport[]> {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  // The server writes each reply whole: the bytes are the same however they are cut, and the cutting is done below.
  const server = await startScriptedModelServer({
    seed: 7,
    minPieceBytes: wholeReplyBytes,
    maxPieceBytes: wholeReplyBytes,
  });
  const recordings: { fixture: string; recorded: RecordedResponse[]; live: unknown[] }[] = [];
  try {
    // Recorded back to back: an idle keep-alive connection may be closed by the server while being reused.
    for (const [fixture, script] of Object.entries(fixtureScripts)) {
      server.setScript(script);
      const recorded: RecordedResponse[] = [];
      recordings.push({
        fixture,
        recorded,
        live: normaliseIds(await runTurn(format, server.origin, recordingFetch(recorded))),
      });
    }
  } finally {
    await server.close();
  }
  const reports: FixtureReport[] = [];
  for (const [fixtureIndex, { fixture, recorded, live }] of recordings.entries()) {
    const wholeEntries = await runTurn(
      format,
      server.origin,
      replayFetch(recorded, (bytes) => [bytes]),
    );
    const whole = normaliseIds(wholeEntries);
    const report: FixtureReport = { fixture, chunkings: 0, mismatches: 0, violations: ruleViolations(wholeEntries) };
    if (!isDeepStrictEqual(live, whole))
      report.violations.push(`the live run differs from the unsplit replay at ${firstDifference(whole, live)}`);
    for (let index = 0; index < chunkings; index++) {
      const seed = 1 + fixtureIndex * 100_003 + index * 7_919;
      const entries = normaliseIds(
        await runTurn(
          format,
          server.origin,
          replayFetch(recorded, (bytes, response) => chunkBytes(bytes, { seed: seed + response })),
        ),
      );
      report.chunkings += 1;
      if (isDeepStrictEqual(entries, whole)) continue;
      report.mismatches += 1;
      report.firstMismatch ??= `seed ${seed}: ${firstDifference(whole, entries)}`;
    }
    reports.push(report);
  }
  return reports;
}
