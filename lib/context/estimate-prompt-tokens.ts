import type { ModelMessage, ToolSet } from 'ai';
import type { TokenCounter } from './token-counter';

/** What each message costs beyond its content (role and separators), as the chat formats frame them. */
const PER_MESSAGE_TOKENS = 4;
/** An image as most providers bill a scaled screenshot (Anthropic's ~1,600 for 1,092×1,092; OpenAI's high detail). */
const PER_IMAGE_TOKENS = 1_600;

type Part = Exclude<ModelMessage['content'], string>[number];

function partText(part: Part): string | undefined {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return part.text;
    case 'tool-call':
      return `${part.toolName} ${JSON.stringify(part.input ?? null)}`;
    case 'tool-result':
      return JSON.stringify(part.output);
    default:
      return undefined;
  }
}

function isImage(part: Part): boolean {
  if (part.type === 'image') return true;
  return part.type === 'file' && part.mediaType.startsWith('image/');
}

/** Tool-result outputs of kind `content` carry images as parts of their own. */
function imagesInResult(part: Part): number {
  if (part.type !== 'tool-result' || part.output.type !== 'content') return 0;
  return part.output.value.filter((value) => value.type === 'image-data' || value.type === 'media').length;
}

function messageTokens(counter: TokenCounter, message: ModelMessage): number {
  if (typeof message.content === 'string') return PER_MESSAGE_TOKENS + counter.count(message.content);
  let tokens = PER_MESSAGE_TOKENS;
  for (const part of message.content) {
    if (isImage(part)) {
      tokens += PER_IMAGE_TOKENS;
      continue;
    }
    if (part.type === 'tool-result' && part.output.type === 'content') {
      const texts = part.output.value.flatMap((value) => (value.type === 'text' ? [value.text] : []));
      tokens += counter.count(texts.join('\n')) + imagesInResult(part) * PER_IMAGE_TOKENS;
      continue;
    }
    const text = partText(part);
    if (text) tokens += counter.count(text);
  }
  return tokens;
}

/** The tools as the model sees them: names, descriptions and input schemas. */
export function toolsText(tools: ToolSet): string {
  return Object.entries(tools)
    .map(([name, definition]) => {
      const schema = (definition.inputSchema as { jsonSchema?: unknown } | undefined)?.jsonSchema;
      const shown = schema && typeof schema === 'object' && !('then' in schema) ? JSON.stringify(schema) : '';
      return `${name}: ${definition.description ?? ''} ${shown}`;
    })
    .join('\n');
}

/** The tokenizer's count of a request's prompt, uncalibrated. */
export function estimatePromptTokens(
  counter: TokenCounter,
  request: { system?: string; messages: readonly ModelMessage[]; toolsText?: string },
): number {
  let tokens =
    (request.system ? counter.count(request.system) : 0) + (request.toolsText ? counter.count(request.toolsText) : 0);
  for (const message of request.messages) tokens += messageTokens(counter, message);
  return tokens;
}
