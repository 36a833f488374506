import type { PromptMenu } from './use-prompt-menu';

export const PROMPT_MENU_ID = 'composer-prompt-menu';

/** The MCP prompts a `/` line may complete to: their command, server, description and arguments. */
export function PromptMenuList({ menu }: { menu: PromptMenu }) {
  if (menu.suggestions.length === 0) return null;
  return (
    <ul className="prompt-menu" id={PROMPT_MENU_ID} role="listbox" aria-label="Prompts of your MCP servers">
      {menu.suggestions.map((prompt, index) => (
        <li
          key={`${prompt.serverId}:${prompt.name}`}
          id={`${PROMPT_MENU_ID}-${index}`}
          role="option"
          aria-selected={index === menu.active}
          data-command={`/${prompt.serverId}:${prompt.name}`}
          // Chosen before the textarea loses focus to the click.
          onMouseDown={(event) => {
            event.preventDefault();
            menu.pick(prompt);
          }}
        >
          <span className="prompt-command">
            /{prompt.serverId}:{prompt.name}
          </span>
          {prompt.arguments.length > 0 && (
            <span className="prompt-arguments">
              {prompt.arguments.map((argument) => `${argument.name}=${argument.required ? '' : '?'}`).join(' ')}
            </span>
          )}
          <span className="prompt-description">
            {prompt.description ?? 'A prompt'} · {prompt.serverName}
          </span>
        </li>
      ))}
    </ul>
  );
}
