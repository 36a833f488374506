import { z } from 'zod';
import { mcpAppGrantListSchema } from './mcp-app-grant';
import { currentPageSchema } from './current-page';
import { targetCatalogSchema } from './target-catalog';
import { targetGrantSchema } from './target-artifact-events';
import { agentEventSchema } from './agent-event';
import { budgetCheckResultSchema } from './budget-check-result';
import { mcpPromptResultSchema, mcpPromptsResultSchema } from './mcp-prompt';
import { mcpToolsResultSchema } from './mcp-tools-result';
import { mcpResourceResultSchema, mcpResourcesResultSchema } from './mcp-resource';
import { jsonObjectSchema, jsonValueSchema } from './json-value';
import { sessionRecordSchema } from './session-record';
import { searchResultSchema } from './search-hit';
import { rewindPreviewSchema, rewindResultSchema } from './rewind-preview';
import { toolOutputSchema } from './tool-output';
import type { RuntimeRequest } from './runtime-message';

const commandResultSchema = z.object({
  commandId: z.string(),
  state: z.enum(['submitted', 'accepted', 'queued', 'applied', 'stale', 'rejected', 'cancelled', 'unknown']),
  /** The state of the turn the command is aimed at, once that turn has ended. */
  turnStatus: z.string().optional(),
});

/** The runtime's answer to `targets/list`; an absent active target is dropped in transit, hence optional. */
export const targetsListResultSchema = z.object({
  catalog: targetCatalogSchema,
  activeTargetId: z.string().optional().nullable(),
  values: jsonObjectSchema.nullable().optional(),
});
export type TargetsListResult = z.infer<typeof targetsListResultSchema>;

const toolExecutionResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.enum(['completed', 'failed', 'denied', 'unknown']),
    output: jsonValueSchema,
    replayed: z.boolean(),
  }),
  /** The call waits for the user (an approval or a question): ask again to keep waiting. */
  z.object({ status: z.literal('waiting'), requestId: z.string(), output: z.null(), replayed: z.boolean() }),
]);

const requestAnswerSchema = z.object({ accepted: z.boolean(), status: z.string(), error: z.string().optional() });

/** For every runtime request, the result it is answered with (inside `{ ok: true, result }`). */
export const runtimeResultSchemas = {
  'events/append': z.object({ lastSeq: z.number() }),
  'events/read': z.object({ events: z.array(agentEventSchema) }),
  'tool/execute': toolExecutionResultSchema,
  'tool/retry': toolExecutionResultSchema,
  'tool/manual': z.object({ output: toolOutputSchema }),
  'sessions/list': z.object({ sessions: z.array(sessionRecordSchema) }),
  'session/delete': z.object({ deleted: z.string() }),
  'session/fork': z.object({ sessionId: z.string() }),
  /** `remapped`: the conversation was already here, so this copy has a new id; `missingFiles`: files the export lacked. */
  'session/import': z.object({
    sessionId: z.string(),
    remapped: z.boolean(),
    missingFiles: z.number().int().nonnegative(),
  }),
  'session/rewind-preview': z.object({ preview: rewindPreviewSchema }),
  'session/rewind': rewindResultSchema,
  'search/query': searchResultSchema,
  'targets/list': targetsListResultSchema,
  'targets/register': z.object({ targetId: z.string() }),
  'targets/unregister': z.object({ removed: z.string() }),
  'approval/decide': requestAnswerSchema.omit({ error: true }),
  'ask/answer': requestAnswerSchema,
  'command/submit': commandResultSchema,
  'command/status': commandResultSchema,
  'command/withdraw': commandResultSchema,
  'pause/take': z.object({ paused: z.boolean() }),
  'turn/resume': commandResultSchema.extend({ note: z.string().optional(), observation: jsonValueSchema.optional() }),
  'steer/take': z.object({ steers: z.array(z.object({ commandId: z.string(), text: z.string() })) }),
  'budget/check': budgetCheckResultSchema,
  'mcp/tools': mcpToolsResultSchema,
  'mcp/prompts': mcpPromptsResultSchema,
  'mcp/prompt': mcpPromptResultSchema,
  'mcp/resources': mcpResourcesResultSchema,
  'mcp/resource': mcpResourceResultSchema,
  'mcp-app/grants': z.object({ grants: mcpAppGrantListSchema }),
  'mcp-app/grant': z.object({ grants: mcpAppGrantListSchema }),
  'job/cancel': z.object({
    commandId: z.string(),
    jobId: z.string(),
    state: z.enum(['applied', 'stale', 'rejected']),
    jobState: z.string(),
  }),
  'artifact/act': requestAnswerSchema.extend({
    problems: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
  'target-artifact/restore': z.object({ version: z.number().int().positive() }),
  'target-artifact/open-version': z.object({ version: z.number().int().positive() }),
  'target-artifact/grant': z.object({ granted: z.array(targetGrantSchema) }),
  'target-artifact/export': z.object({ fileName: z.string(), zipBase64: z.string() }),
  'page/current': currentPageSchema,
} satisfies Record<RuntimeRequest['type'], z.ZodType>;

export type RuntimeRequestType = RuntimeRequest['type'];
export type RuntimeRequestOf<TType extends RuntimeRequestType> = Extract<RuntimeRequest, { type: TType }>;
export type RuntimeResult<TType extends RuntimeRequestType> = z.infer<(typeof runtimeResultSchemas)[TType]>;

/** One handler per request type, each answering with its type's result. */
export type RuntimeHandlers = {
  [TType in RuntimeRequestType]: (request: RuntimeRequestOf<TType>) => Promise<RuntimeResult<TType>>;
};

/** Checks a result against the schema of the request it answers. */
export function parseRuntimeResult<TType extends RuntimeRequestType>(
  type: TType,
  result: unknown,
): z.ZodSafeParseResult<RuntimeResult<TType>> {
  // Indexing the map with a generic key widens the schema to the union of all of them; the key fixes which one.
  return runtimeResultSchemas[type].safeParse(result) as z.ZodSafeParseResult<RuntimeResult<TType>>;
}
