import { z } from 'zod';

/** One prompt as a server lists it (`prompts/list`), with the arguments it takes. */
export interface McpListedPrompt {
  name: string;
  description?: string;
  arguments: { name: string; required: boolean }[];
}

const promptDefinitionSchema = z.object({
  serverId: z.string(),
  serverName: z.string(),
  name: z.string(),
  description: z.string().optional(),
  arguments: z.array(z.object({ name: z.string(), required: z.boolean() })),
});
export type McpPromptDefinition = z.infer<typeof promptDefinitionSchema>;

/** The runtime's answer to `mcp/prompts`: the enabled servers' prompts, and why a server has none to give. */
export const mcpPromptsResultSchema = z.object({
  prompts: z.array(promptDefinitionSchema),
  notes: z.array(z.string()),
});
export type McpPromptsResult = z.infer<typeof mcpPromptsResultSchema>;

/** The runtime's answer to `mcp/prompt`: the prompt's text, as the user's message, or why there is none. */
export const mcpPromptResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), text: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type McpPromptResult = z.infer<typeof mcpPromptResultSchema>;

const getPromptResultSchema = z.object({
  messages: z.array(
    z.object({
      role: z.enum(['user', 'assistant']),
      content: z.object({ type: z.string(), text: z.string().optional() }),
    }),
  ),
});

/**
 * A `prompts/get` result as the text of the user's next message: the text of its messages, in order. Content
 * that is not text (an image, an embedded resource) is named, not dropped silently.
 */
export function mcpPromptText(result: unknown): McpPromptResult {
  const parsed = getPromptResultSchema.safeParse(result);
  if (!parsed.success) return { ok: false, error: 'The server sent a prompt that is not a prompts/get result.' };
  const parts = parsed.data.messages.map((message) =>
    message.content.type === 'text' && message.content.text !== undefined
      ? message.content.text
      : `[${message.content.type} content left out]`,
  );
  return { ok: true, text: parts.join('\n\n') };
}

/**
 * A composer line `/<server>:<prompt> name=value …` as a prompt call, or undefined when the line is not one of
 * the listed prompts. Values run to the next ` name=`; a required argument left out is an error.
 */
export function parseMcpPromptCommand(
  line: string,
  prompts: readonly McpPromptDefinition[],
):
  | { ok: true; serverId: string; name: string; arguments: Record<string, string> }
  | { ok: false; error: string }
  | undefined {
  const match = /^\/([a-z0-9][a-z0-9-]*):(\S+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  const [, serverId, name, rest = ''] = match;
  const prompt = prompts.find((candidate) => candidate.serverId === serverId && candidate.name === name);
  if (!prompt) return undefined;
  const values: Record<string, string> = {};
  const names = prompt.arguments.map((argument) => argument.name);
  const pattern = new RegExp(`(?:^|\\s)(${names.map(escapeRegExp).join('|') || '(?!)'})=`, 'g');
  const found = [...rest.matchAll(pattern)];
  found.forEach((hit, index) => {
    const start = hit.index + hit[0].length;
    const end = index + 1 < found.length ? found[index + 1].index : rest.length;
    values[hit[1]] = rest.slice(start, end).trim();
  });
  const missing = prompt.arguments.filter((argument) => argument.required && !values[argument.name]);
  if (missing.length > 0) {
    return {
      ok: false,
      error: `/${serverId}:${name} needs ${missing.map((argument) => `${argument.name}=…`).join(' ')}.`,
    };
  }
  return { ok: true, serverId, name, arguments: values };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
