import type { ShownTarget } from './stage-call-record';

/** Why the stage refuses to load a target from `url`: only its own pages and the web. */
export function stageOpenRefusal(url: string, extensionOrigin: string): string | undefined {
  const { protocol, origin } = new URL(url);
  if (origin !== extensionOrigin && protocol !== 'http:' && protocol !== 'https:')
    return `Refusing to load a target from ${url}.`;
  return undefined;
}

/** Why a command for the target `targetId` is not sent: an app takes none, and only the target shown, not a preview. */
export function stageSendRefusal(shown: ShownTarget | undefined, targetId: string): string | undefined {
  if (shown?.isApp && shown.targetId === targetId) return 'An MCP App takes no target commands.';
  if (!shown || shown.targetId !== targetId || shown.preview) return `Target "${targetId}" is not open in the stage.`;
  return undefined;
}
