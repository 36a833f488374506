import { useEffect, useState, type KeyboardEvent } from 'react';
import { promptCommandText, promptSuggestions } from '@/lib/panel/prompt-command';
import type { McpPromptDefinition } from '@/lib/protocol/mcp-prompt';
import { usePanelActions } from '../shared/panel-actions';

export interface PromptMenu {
  suggestions: McpPromptDefinition[];
  /** The highlighted suggestion: Enter or Tab takes it. */
  active: number;
  pick(prompt: McpPromptDefinition): void;
  /** Handles a key of the composer while the menu is open; true when it was the menu's. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
}

/** The `/` menu of the enabled MCP servers' prompts, asked of the runtime each time a line starts with `/`. */
export function usePromptMenu(text: string, setText: (text: string) => void): PromptMenu {
  const { listPrompts } = usePanelActions();
  const [prompts, setPrompts] = useState<McpPromptDefinition[]>([]);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<string>();
  const wanted = text.startsWith('/') && !/\s/.test(text);
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    listPrompts().then(
      (result) => current && setPrompts(result.prompts),
      () => current && setPrompts([]),
    );
    return () => {
      current = false;
    };
  }, [wanted, listPrompts]);
  const suggestions = dismissedAt === text ? [] : promptSuggestions(text, prompts);
  const index = Math.max(0, Math.min(active, suggestions.length - 1));
  const pick = (prompt: McpPromptDefinition) => {
    setText(promptCommandText(prompt));
    setActive(0);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions.length === 0) return false;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: suggestions.length - 1 };
    if (event.key in moves) setActive((index + moves[event.key]) % suggestions.length);
    else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') pick(suggestions[index]);
    else if (event.key === 'Escape') setDismissedAt(text);
    else return false;
    event.preventDefault();
    return true;
  };
  return { suggestions, active: index, pick, onKeyDown };
}
