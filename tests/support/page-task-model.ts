import { randomUUID } from 'node:crypto';
import type { StreamableStep } from '../../scripts/scripted-model-server/script';

/** A tool result the model got in this turn (OpenAI chat format), parsed. */
export type ToolResult = Record<string, unknown>;

/** One step of a scripted page task: from the last tool result of the turn to the model's next reply. */
export type PageTaskStep = (last: ToolResult | undefined) => StreamableStep;

interface ChatMessage {
  role: string;
  content?: unknown;
}

function messagesOf(body: unknown): ChatMessage[] {
  const messages = (body as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? (messages as ChatMessage[]) : [];
}

/**
 * A scripted model that reads the page: step N of the task answers the request that carries N assistant
 * replies since the last user message, and sees the latest tool result that carries an observation, so it can
 * quote the observationId and refs the runtime handed out.
 */
export function pageTaskResponder(task: () => PageTaskStep[]) {
  return (body: unknown): StreamableStep | undefined => {
    const messages = messagesOf(body);
    const lastUser = messages.findLastIndex((message) => message.role === 'user');
    const since = messages.slice(lastUser + 1);
    const stepIndex = since.filter((message) => message.role === 'assistant').length;
    const results = since
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.parse(String(message.content)) as ToolResult);
    // A denied call has no observation: the model goes on from the last one it saw.
    const last = results.findLast(hasObservation) ?? results.at(-1);
    const step = task()[stepIndex];
    try {
      return withCallIds(step ? step(last) : { text: 'Done.' });
    } catch (error) {
      console.error('[page task model]', error);
      throw error;
    }
  };
}

/** Every call gets its own id: the server's default ids repeat from turn to turn, and a repeated id is one call. */
function withCallIds(step: StreamableStep): StreamableStep {
  if (!('toolCalls' in step)) return step;
  return { ...step, toolCalls: step.toolCalls.map((call) => ({ id: `call_${randomUUID()}`, ...call })) };
}

function hasObservation(result: ToolResult): boolean {
  return (
    typeof result.observationId === 'string' || (typeof result.observation === 'object' && result.observation !== null)
  );
}

/** The observation in a tool result: observePage's own, or the fresh one an action returned. */
export function observationIn(result: ToolResult | undefined): ToolResult {
  const nested = result?.observation;
  const observation = nested && typeof nested === 'object' ? (nested as ToolResult) : result;
  if (!observation || typeof observation.observationId !== 'string')
    throw new Error(`No observation in ${JSON.stringify(result).slice(0, 2000)}`);
  return observation;
}

/** The ref of the first `- role "name"` line of the observation's snapshot. */
export function refIn(result: ToolResult | undefined, role: string, name: string): string {
  const snapshot = String(observationIn(result).snapshot);
  const line = snapshot.split('\n').find((candidate) => candidate.includes(`- ${role} "${name}"`));
  const ref = line ? /\[ref=((?:f\d+)?e\d+)\]/.exec(line)?.[1] : undefined;
  if (!ref) throw new Error(`No ${role} "${name}" with a ref in:\n${snapshot}`);
  return ref;
}

/** An actOnPage call on the element `role "name"` of the last observation. */
export function actOn(role: string, name: string, action: string, extra: Record<string, unknown> = {}): PageTaskStep {
  return (last) => ({
    toolCalls: [
      {
        name: 'actOnPage',
        arguments: { observationId: observationIn(last).observationId, action, ref: refIn(last, role, name), ...extra },
      },
    ],
  });
}

export const observe: PageTaskStep = () => ({ toolCalls: [{ name: 'observePage', arguments: {} }] });
