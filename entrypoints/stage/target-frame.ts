import type { TargetGrant } from '@/lib/protocol/target-artifact-events';
import { targetFramePermissions } from '@/lib/stage/target-frame-permissions';

/** A sandboxed frame for a target at `url`, not yet in the page. */
export function createTargetFrame(
  targetId: string,
  url: string,
  granted: readonly TargetGrant[] | undefined,
  isApp: boolean,
): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  const { sandbox, allow } = targetFramePermissions(granted);
  frame.setAttribute('sandbox', sandbox);
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.setAttribute('allow', allow);
  frame.title = targetId;
  // An app is told the theme; its frame's backdrop is that theme's, not the stage's dark bar colour.
  if (isApp) frame.className = 'mcp-app';
  frame.src = url;
  return frame;
}
