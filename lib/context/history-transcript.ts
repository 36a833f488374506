import type { ModelMessage } from 'ai';

const RESULT_CHARACTERS = 1_500;
const INPUT_CHARACTERS = 500;

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}

function partsText(message: ModelMessage): string[] {
  if (typeof message.content === 'string') return [message.content];
  return message.content.flatMap((part) => {
    switch (part.type) {
      case 'text':
        return [part.text];
      case 'tool-call':
        return [`[call ${part.toolName} ${clip(JSON.stringify(part.input ?? null), INPUT_CHARACTERS)}]`];
      case 'tool-result':
        return [`[result of ${part.toolName}: ${clip(JSON.stringify(part.output), RESULT_CHARACTERS)}]`];
      case 'image':
      case 'file':
        return ['[an attached file or image]'];
      default:
        return [];
    }
  });
}

/**
 * The covered messages as plain text, for the summary request: no tool parts, so a provider that wants tool
 * definitions beside tool history (Anthropic) takes it, and long results are clipped.
 */
export function historyTranscript(messages: readonly ModelMessage[]): string {
  return messages.map((message) => `${message.role.toUpperCase()}:\n${partsText(message).join('\n')}`).join('\n\n');
}
