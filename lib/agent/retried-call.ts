import type { ModelMessage } from 'ai';
import { resolveBlobs, toolOutputImages, toolResultContent, toolResultMessages } from '../files/model-file-content';
import type { EndpointFileLimits, FileEndpointKind } from '../files/file-limits';
import type { JsonValue } from '../protocol/json-value';
import type { ToolCallState } from '../state/client-state';
import { toolNamed } from '../tools/tool-registry';
import type { DriveRequest } from './drive-turn';
import type { RuntimeClient } from './runtime-client';

/** A failed call run again by the user: its first attempt (the id the runtime knows it by) and the new attempt's id. */
export interface RetriedCall {
  toolCallId: string;
  attemptId: string;
  toolName: string;
  input: JsonValue;
}

/** A question to the user (askUser) is answered, not retried; every other tool, MCP ones too, can run again. */
export function isRetryableTool(toolName: string): boolean {
  return toolNamed(toolName)?.runsOn !== 'user';
}

/** The retry of `call` (any attempt of it): the call it retries is the first attempt, as the runtime requires. */
export function retriedCall(call: ToolCallState, attemptId: string): RetriedCall {
  return { toolCallId: call.retryOf ?? call.toolCallId, attemptId, toolName: call.toolName, input: call.input ?? {} };
}

/** What the model reads as the retrying turn's message: the user ran the call again, and its result follows. */
export function retryNote(call: Pick<ToolCallState, 'toolName' | 'status'>): string {
  const why = call.status === 'unknown' ? 'its outcome was unknown' : 'it failed';
  return `I ran your tool call ${call.toolName} again, because ${why}. The new attempt and its result follow.`;
}

/**
 * Runs the retry through the runtime (asking again while it waits for the user's approval) and returns what the
 * model reads of it: the attempt as a tool call of its own id and its result, exactly as the history rebuilds them.
 */
export async function retriedCallMessages(
  setup: {
    client: RuntimeClient;
    sessionId: string;
    turnId: string;
    files: DriveRequest['files'];
    fileLimits: { kind: FileEndpointKind; limits: EndpointFileLimits };
    signal: AbortSignal;
  },
  retry: RetriedCall,
): Promise<ModelMessage[]> {
  const { client, sessionId, turnId, signal } = setup;
  if (!client.retryToolCall) throw new Error('This runtime cannot retry a tool call.');
  let output: JsonValue = null;
  for (;;) {
    const result = await client.retryToolCall({
      sessionId,
      turnId,
      toolCallId: retry.toolCallId,
      attemptId: retry.attemptId,
    });
    if (result.status !== 'waiting') {
      output = result.output;
      break;
    }
    if (signal.aborted) return [];
  }
  const call = { toolCallId: retry.attemptId, toolName: retry.toolName };
  const images = toolOutputImages(output);
  const files =
    setup.files && images.length
      ? { ...setup.fileLimits, resolved: await resolveBlobs(images, setup.files, setup.fileLimits.limits) }
      : undefined;
  return [
    { role: 'assistant', content: [{ type: 'tool-call', ...call, input: retry.input }] },
    ...toolResultMessages([toolResultContent(call, output, files)]),
  ];
}
