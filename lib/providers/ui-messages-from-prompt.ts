import type { LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';
import { convertToBase64 } from '@ai-sdk/provider-utils';

/** The UI message shape AI SDK chat servers read (what useChat sends); kept loose so no server-specific typing leaks in. */
export interface ChatUIMessage {
  id: string;
  role: 'system' | 'user' | 'assistant';
  metadata?: Record<string, unknown>;
  parts: Record<string, unknown>[];
}

/** The text of the invisible user turn that asks a server to go on after tool results. */
const CONTINUATION_TEXT = 'Continue.';

/**
 * The conversation as useChat would hold it: one assistant message per turn, a `step-start` part before
 * each step, tool calls as `tool-<name>` parts carrying their outputs. With `continuation`, a conversation
 * that ends on tool results gets a user message marked { continuation: true } so servers that only answer
 * a user turn go on; it exists only in this request, never in the history.
 */
export function uiMessagesFromPrompt(
  prompt: LanguageModelV3Prompt,
  options: { continuation: boolean },
): ChatUIMessage[] {
  const messages: ChatUIMessage[] = [];
  const assistant = (): ChatUIMessage => {
    const last = messages.at(-1);
    if (last?.role === 'assistant') return last;
    const created: ChatUIMessage = { id: `assistant-${messages.length}`, role: 'assistant', parts: [] };
    messages.push(created);
    return created;
  };
  for (const message of prompt) {
    if (message.role === 'system')
      messages.push({
        id: `system-${messages.length}`,
        role: 'system',
        parts: [{ type: 'text', text: message.content }],
      });
    else if (message.role === 'user')
      messages.push({
        id: `user-${messages.length}`,
        role: 'user',
        parts: message.content.flatMap((part) => userPart(part)),
      });
    else if (message.role === 'assistant') appendStep(assistant(), message.content);
    else attachResults(assistant(), message.content);
  }
  if (options.continuation && messages.at(-1)?.role === 'assistant') {
    messages.push({
      id: `continuation-${messages.length}`,
      role: 'user',
      metadata: { continuation: true },
      parts: [{ type: 'text', text: CONTINUATION_TEXT }],
    });
  }
  return messages;
}

type UserContentPart = Extract<LanguageModelV3Prompt[number], { role: 'user' }>['content'][number];

/** Files go as useChat sends them: a `file` part with a data URL (only in this request, never in the log). */
function userPart(part: UserContentPart): Record<string, unknown>[] {
  if (part.type === 'text') return [{ type: 'text', text: part.text }];
  const url =
    part.data instanceof URL
      ? part.data.toString()
      : `data:${part.mediaType};base64,${typeof part.data === 'string' ? part.data : convertToBase64(part.data)}`;
  return [{ type: 'file', mediaType: part.mediaType, ...(part.filename ? { filename: part.filename } : {}), url }];
}

type AssistantContent = Extract<LanguageModelV3Prompt[number], { role: 'assistant' }>['content'];
type ToolContent = Extract<LanguageModelV3Prompt[number], { role: 'tool' }>['content'];

function appendStep(message: ChatUIMessage, content: AssistantContent): void {
  message.parts.push({ type: 'step-start' });
  for (const part of content) {
    if (part.type === 'text') message.parts.push({ type: 'text', text: part.text, state: 'done' });
    else if (part.type === 'reasoning') message.parts.push({ type: 'reasoning', text: part.text, state: 'done' });
    else if (part.type === 'tool-call')
      message.parts.push({
        type: `tool-${part.toolName}`,
        toolCallId: part.toolCallId,
        state: 'input-available',
        input: part.input,
      });
  }
}

function attachResults(message: ChatUIMessage, content: ToolContent): void {
  for (const result of content) {
    if (result.type !== 'tool-result') continue;
    const index = message.parts.findIndex((part) => part.toolCallId === result.toolCallId);
    if (index === -1) continue;
    message.parts[index] = { ...message.parts[index], ...outputFields(result.output) };
  }
}

function outputFields(output: LanguageModelV3ToolResultOutput): Record<string, unknown> {
  switch (output.type) {
    case 'json':
    case 'text':
      return { state: 'output-available', output: output.value };
    case 'error-text':
      return { state: 'output-error', errorText: output.value };
    case 'error-json':
      return { state: 'output-error', errorText: JSON.stringify(output.value) };
    case 'execution-denied':
      return { state: 'output-error', errorText: output.reason ?? 'The user denied this call.' };
    default:
      return { state: 'output-available', output: output.value };
  }
}
