import {
  parseMcpPromptCommand,
  type McpPromptDefinition,
  type McpPromptResult,
  type McpPromptsResult,
} from '../protocol/mcp-prompt';

/** The most prompts the composer's `/` menu shows at once. */
export const PROMPT_MENU_SIZE = 8;

/** What a prompt's menu entry puts into the composer: its command, and `name=` for each argument it requires. */
export function promptCommandText(prompt: McpPromptDefinition): string {
  const required = prompt.arguments.filter((argument) => argument.required).map((argument) => `${argument.name}=`);
  return [`/${prompt.serverId}:${prompt.name}`, ...required].join(' ') + (required.length ? '' : ' ');
}

/** The prompts a composer text starting with `/` and no space yet may complete to, best match first. */
export function promptSuggestions(text: string, prompts: readonly McpPromptDefinition[]): McpPromptDefinition[] {
  if (!text.startsWith('/') || /\s/.test(text)) return [];
  const typed = text.slice(1).toLowerCase();
  const command = (prompt: McpPromptDefinition) => `${prompt.serverId}:${prompt.name}`.toLowerCase();
  const starts = prompts.filter(
    (prompt) => command(prompt).startsWith(typed) || prompt.name.toLowerCase().startsWith(typed),
  );
  const contains = prompts.filter((prompt) => !starts.includes(prompt) && command(prompt).includes(typed));
  return [...starts, ...contains].slice(0, PROMPT_MENU_SIZE);
}

export type ComposedText = { ok: true; text: string } | { ok: false; error: string };

/**
 * The message a composer line sends: a line `/<server>:<prompt> name=value …` naming a listed prompt is filled in
 * by its server; any other text goes as it was typed (a `/` that names no prompt included).
 */
export async function resolvePromptCommand(
  text: string,
  runtime: {
    prompts(): Promise<McpPromptsResult>;
    prompt(serverId: string, name: string, args: Record<string, string>): Promise<McpPromptResult>;
  },
): Promise<ComposedText> {
  if (!text.startsWith('/')) return { ok: true, text };
  const { prompts } = await runtime.prompts();
  const command = parseMcpPromptCommand(text, prompts);
  if (!command) return { ok: true, text };
  if (!command.ok) return command;
  const filled = await runtime.prompt(command.serverId, command.name, command.arguments);
  if (!filled.ok) return { ok: false, error: `/${command.serverId}:${command.name}: ${filled.error}` };
  if (!filled.text.trim()) return { ok: false, error: `/${command.serverId}:${command.name} gave an empty prompt.` };
  return { ok: true, text: filled.text };
}
