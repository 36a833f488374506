import type { AgentEvent } from '../protocol/agent-event';
import type { RecordedCallResult } from '../targets/tool-recovery';

/** Where an app's opening is: the stage's record of the call that opened it (`<sessionId>/<toolCallId>`). */
export function mcpAppOpeningCall(
  recent: readonly RecordedCallResult[],
  targetId: string,
): { sessionId: string; toolCallId: string } | undefined {
  const opened = recent.findLast((entry) => entry.type === 'open' && entry.targetId === targetId);
  const separator = opened?.callKey.indexOf('/') ?? -1;
  if (!opened || separator <= 0) return undefined;
  return { sessionId: opened.callKey.slice(0, separator), toolCallId: opened.callKey.slice(separator + 1) };
}

/** The MCP tool whose completed call in this log opened the app `targetId`; undefined when the log says otherwise. */
export function mcpAppOpeningTool(
  events: readonly AgentEvent[],
  toolCallId: string,
  targetId: string,
): string | undefined {
  const requested = events.find((event) => event.type === 'tool/requested' && event.toolCallId === toolCallId);
  const opened = events.some((event) => {
    if (event.type !== 'tool/completed' || event.toolCallId !== toolCallId) return false;
    const { app } = event.data.output as { app?: unknown };
    return typeof app === 'object' && app !== null && (app as { targetId?: unknown }).targetId === targetId;
  });
  return requested?.type === 'tool/requested' && opened ? requested.data.toolName : undefined;
}
