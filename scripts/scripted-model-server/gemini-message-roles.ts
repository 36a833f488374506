import { z } from 'zod';
import { isContinuationText } from './continuation-text';
import { messageText } from './message-text';
import type { ScriptMessage } from './script';

const partSchema = z.looseObject({ functionResponse: z.unknown().optional(), text: z.string().optional() });

export interface GeminiContent {
  readonly role?: string | undefined;
  readonly parts: readonly unknown[];
}

/**
 * Gemini `contents` → neutral roles: `model` is the assistant; tool results are
 * `functionResponse` parts inside user contents, so a user content with them
 * becomes `tool`, followed by `user` when it also has other parts. A content
 * without a role counts as user, as the API treats it.
 */
export function geminiMessageRoles(contents: readonly GeminiContent[]): ScriptMessage[] {
  return contents.flatMap((content): ScriptMessage[] => {
    if (content.role === 'model') return [{ role: 'assistant' }];
    const parts = content.parts
      .map((part) => partSchema.safeParse(part))
      .flatMap((parsed) => (parsed.success ? [parsed.data] : []));
    const toolResults = parts.filter((part) => part.functionResponse !== undefined);
    const userParts = parts.filter((part) => part.functionResponse === undefined);
    const roles: ScriptMessage[] = [];
    if (toolResults.length > 0) roles.push({ role: 'tool' });
    if (userParts.length > 0 || toolResults.length === 0) {
      roles.push(isContinuationText(messageText(userParts)) ? { role: 'user', continuation: true } : { role: 'user' });
    }
    return roles;
  });
}
