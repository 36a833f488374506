import type { ModelMessage, ToolResultPart } from 'ai';
import type { JsonObject, JsonValue } from '../protocol/json-value';
import { imagesFollowUpCallId } from '../files/model-file-content';
import { toolResultValue } from './tool-result-value';

/** How much of the past goes to the model in full; everything else is a stub that says how to get it again. */
export interface AgingPolicy {
  /**
   * At most this many of the newest observations of a tab go in full; when one more arrives, all but the newest are
   * stubbed at once. Stubbing in batches, not one by one, lets most requests only append to the one before, so the
   * provider's prompt cache holds (each request's prefix is the previous request).
   */
  observationsInFull: number;
  /**
   * And at most this many characters of them (the newest always goes in full): a small window keeps fewer pages in
   * full than a large one, in the same batches.
   */
  observationCharactersInFull: number;
  /** The same for the results that carry images (screenshots): at most this many newest keep them. */
  screenshotsInFull: number;
  /** A result whose JSON is longer than this many characters is stubbed once `largeResultsAfter` results follow it. */
  largeResultCharacters: number;
  largeResultsAfter: number;
}

export const DEFAULT_AGING_POLICY: AgingPolicy = {
  observationsInFull: 5,
  observationCharactersInFull: Number.POSITIVE_INFINITY,
  screenshotsInFull: 3,
  largeResultCharacters: 8_000,
  largeResultsAfter: 6,
};

/** The observations in full of a tab may fill this share of the prompt limit. */
const OBSERVATION_SHARE_OF_LIMIT = 0.4;
/**
 * Characters per token of a result on the safe side: a page's snapshot sent as JSON (its quotes and line breaks
 * escaped) counts about 2.4; prose about 4. The prompt's own limit is kept by the tokenizer's count, not by this.
 */
const CHARACTERS_PER_TOKEN = 2.5;

/** The policy for a prompt limit in tokens: a 32k window keeps 2 pages of 4k tokens in full, a 128k window 5. */
export function agingPolicyFor(limitTokens: number | undefined): AgingPolicy {
  if (limitTokens === undefined) return DEFAULT_AGING_POLICY;
  const observationCharactersInFull = Math.floor(limitTokens * OBSERVATION_SHARE_OF_LIMIT * CHARACTERS_PER_TOKEN);
  return { ...DEFAULT_AGING_POLICY, observationCharactersInFull };
}

/** Fields a stubbed result keeps: the ids and outcome the model may still quote. */
const KEPT_FIELDS = ['ok', 'code', 'error', 'jobId', 'state', 'targetId', 'artifactId', 'version'] as const;

interface Located {
  part: ToolResultPart;
  value: JsonValue | undefined;
  hasImages: boolean;
}

interface Observation {
  observationId: string;
  tabId: number;
  url: string;
}

/**
 * The messages a request sends: the same conversation with older page observations, screenshots and large results
 * as one-line stubs. A pure function of the messages (so of the log): once a result is stubbed, later requests stub
 * it the same way, so consecutive requests share their prefix up to the newest change.
 */
export function ageToolResults(messages: readonly ModelMessage[], policy = DEFAULT_AGING_POLICY): ModelMessage[] {
  const results = locateResults(messages);
  const replacements = new Map<ToolResultPart, ToolResultPart>();
  const dropImagesOf = new Set<string>();
  const successors = observationSuccessors(results, policy);
  const withImages = results.filter((result) => result.hasImages);
  const imagesKept = new Set(
    withImages.slice(batchCut(withImages.length, policy.screenshotsInFull)).map((result) => result.part),
  );
  results.forEach((result, index) => {
    const successor = successors.get(result.part);
    const later = results.length - 1 - index;
    const large =
      result.value !== undefined &&
      successor === undefined &&
      later >= policy.largeResultsAfter &&
      observationOf(result.value) === undefined &&
      jsonLength(result) > policy.largeResultCharacters;
    const stripImages = result.hasImages && !imagesKept.has(result.part);
    if (!successor && !large && !stripImages) return;
    const value = successor
      ? supersededValue(result.value!, successor)
      : large
        ? largeStub(result.value!, result.part, jsonLength(result))
        : withoutImages(result.value);
    replacements.set(result.part, { ...result.part, output: { type: 'json', value } });
    if (result.hasImages) dropImagesOf.add(result.part.toolCallId);
  });
  if (replacements.size === 0) return [...messages];
  return messages.flatMap((message) => agedMessage(message, replacements, dropImagesOf));
}

function agedMessage(
  message: ModelMessage,
  replacements: Map<ToolResultPart, ToolResultPart>,
  dropImagesOf: Set<string>,
): ModelMessage[] {
  if (message.role === 'tool')
    return [
      {
        ...message,
        content: message.content.map((part) => (part.type === 'tool-result' ? (replacements.get(part) ?? part) : part)),
      },
    ];
  const followUpOf = imagesFollowUpCallId(message);
  return followUpOf !== undefined && dropImagesOf.has(followUpOf) ? [] : [message];
}

/** The loop hands every step the same part objects, so a result's length is measured once, not once per step. */
const measuredLengths = new WeakMap<ToolResultPart, number>();

function jsonLength(result: Located): number {
  const known = measuredLengths.get(result.part);
  if (known !== undefined) return known;
  const length = JSON.stringify(result.value).length;
  measuredLengths.set(result.part, length);
  return length;
}

function locateResults(messages: readonly ModelMessage[]): Located[] {
  const results: Located[] = [];
  const followedUp = new Set(messages.flatMap((message) => imagesFollowUpCallId(message) ?? []));
  messages.forEach((message) => {
    if (message.role !== 'tool') return;
    message.content.forEach((part) => {
      if (part.type !== 'tool-result') return;
      const { value, images } = toolResultValue(part.output);
      results.push({ part, value, hasImages: images || followedUp.has(part.toolCallId) });
    });
  });
  return results;
}

/**
 * How many of the oldest items are stubbed: they fill batches from the first on, each batch at most `maxCount` items
 * and `maxCharacters` (at least one item), and all but the last batch are stubbed. A batch never changes once the
 * next has begun, so adding items only ever stubs more.
 */
function batchStart(lengths: readonly number[], maxCount: number, maxCharacters: number): number {
  let start = 0;
  let characters = 0;
  lengths.forEach((length, index) => {
    const count = index - start;
    if (count >= maxCount || (count > 0 && characters + length > maxCharacters)) [start, characters] = [index, 0];
    characters += length;
  });
  return start;
}

/** `batchStart` by count alone: none stubbed up to `inFull`, then in jumps of `inFull`. */
export function batchCut(count: number, inFull: number): number {
  return batchStart(new Array<number>(Math.max(0, count)).fill(0), inFull, Number.POSITIVE_INFINITY);
}

/** `batchStart` of a tab's observations, by the policy's count and characters. */
export function observationBatchCut(lengths: readonly number[], policy: AgingPolicy): number {
  return batchStart(lengths, policy.observationsInFull, policy.observationCharactersInFull);
}

/** For each observation stubbed: the observation of the same tab that came next (what the stub names, for good). */
function observationSuccessors(results: readonly Located[], policy: AgingPolicy): Map<ToolResultPart, Observation> {
  const byTab = new Map<number, { result: Located; observation: Observation }[]>();
  for (const result of results) {
    const observation = result.value === undefined ? undefined : observationOf(result.value);
    if (!observation) continue;
    const list = byTab.get(observation.tabId) ?? [];
    list.push({ result, observation });
    byTab.set(observation.tabId, list);
  }
  const successors = new Map<ToolResultPart, Observation>();
  for (const list of byTab.values()) {
    const cut = observationBatchCut(
      list.map((entry) => jsonLength(entry.result)),
      policy,
    );
    for (let index = 0; index < cut; index++) successors.set(list[index].result.part, list[index + 1].observation);
  }
  return successors;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The observation a result carries: an observePage result itself, or the fresh one an action returns. */
export function observationOf(value: JsonValue): Observation | undefined {
  if (!isObject(value)) return undefined;
  const candidate = isObject(value.observation) ? value.observation : value;
  const { observationId, tabId, url } = candidate;
  if (typeof observationId !== 'string' || typeof tabId !== 'number' || !('snapshot' in candidate)) return undefined;
  return { observationId, tabId, url: typeof url === 'string' ? url : '' };
}

function observationStub(observation: Observation, successor: Observation): JsonObject {
  return {
    observationId: observation.observationId,
    tabId: observation.tabId,
    url: observation.url,
    superseded: `Left out: observation ${successor.observationId} of this tab came after it. Act on the newest observation, or call observePage for the page as it is now.`,
  };
}

function supersededValue(value: JsonValue, successor: Observation): JsonValue {
  const observation = observationOf(value)!;
  if (!isObject(value)) return value;
  if (!isObject(value.observation)) return { ok: value.ok ?? true, ...observationStub(observation, successor) };
  return { ...value, observation: observationStub(observation, successor) };
}

function largeStub(value: JsonValue, part: ToolResultPart, characters: number): JsonValue {
  const kept: JsonObject = {};
  if (isObject(value)) for (const field of KEPT_FIELDS) if (field in value) kept[field] = value[field];
  const again =
    typeof kept.jobId === 'string'
      ? `Call jobStatus with jobId "${kept.jobId}" to read it again.`
      : `Call ${part.toolName} again if you need it.`;
  return { ...kept, leftOut: `This result (${characters} characters) was sent in full earlier. ${again}` };
}

function withoutImages(value: JsonValue | undefined): JsonValue {
  if (!isObject(value)) return value ?? null;
  const rest = Object.fromEntries(
    Object.entries(value).filter(([key]) => key !== 'images' && key !== 'screenshot'),
  ) as JsonObject;
  return { ...rest, imagesLeftOut: 'Its images were sent earlier; only the newest screenshots go with a request.' };
}
