import { safeParseJSON } from '@ai-sdk/provider-utils';
import { describeOutput } from './output-window';
import type { JobRecord } from './job-ledger';
import { jsonValueSchema, type JsonObject, type JsonValue } from '../protocol/json-value';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { OutputSummary } from '../protocol/job-events';
import type { ToolOutput } from '../protocol/tool-output';

function outputFields(output: OutputSummary): JsonObject {
  return {
    output: describeOutput(output),
    outputBytes: output.totalBytes,
    ...(output.droppedBytes > 0 ? { outputBytesCut: output.droppedBytes } : {}),
  };
}

/** The result as the model reads it: the JSON value when it is whole, else the excerpt as text. */
async function resultValue(result: string, resultBytes: number): Promise<JsonValue> {
  if (new TextEncoder().encode(result).length < resultBytes)
    return `${result}… [result cut: ${resultBytes} bytes in all]`;
  const parsed = await safeParseJSON({ text: result, schema: jsonValueSchema });
  return parsed.success ? parsed.value : result;
}

/** What runScript (in the foreground) and jobStatus tell the model about a job. */
export async function jobReport(job: JobRecord): Promise<ToolOutput> {
  const base = { jobId: job.jobId, state: job.state };
  const final = job.final;
  if (!final) return { ok: true, ...base, note: 'The job is still running; call jobStatus later.' };
  switch (final.type) {
    case 'job/completed':
      return {
        ok: true,
        ...base,
        result: await resultValue(final.data.result, final.data.resultBytes),
        ...outputFields(final.data.output),
        durationMs: final.data.durationMs,
      };
    case 'job/failed':
      return {
        ok: false,
        ...base,
        reason: final.data.reason,
        error: final.data.message,
        ...(final.data.stack ? { stack: final.data.stack } : {}),
        ...outputFields(final.data.output),
      };
    case 'job/killed':
      return {
        ok: false,
        ...base,
        error: final.data.cause === 'user' ? 'Stopped by the user.' : 'Stopped with its turn.',
        ...outputFields(final.data.output),
      };
    case 'job/orphaned':
      return {
        ok: false,
        ...base,
        error: `Orphaned: ${final.data.reason} Its outcome is not known; it was not run again.`,
      };
  }
}

/**
 * The one place that words a background job's end as a fact notification. It returns an event of the existing
 * `notification` type; a `notify/*` fact event can replace it here alone.
 */
export function jobCompletionNotice(sessionId: string, job: JobRecord, time: number): AgentEventDraft {
  const state = job.final?.type.slice('job/'.length) ?? job.state;
  return {
    type: 'notify/job-finished',
    sessionId,
    notificationId: `job/${job.jobId}`,
    jobId: job.jobId,
    ...(job.turnId ? { turnId: job.turnId } : {}),
    time,
    data: {
      state: state === 'completed' || state === 'failed' || state === 'killed' ? state : 'orphaned',
      message: `Background job ${job.jobId} ended: ${state}.`,
    },
  };
}
