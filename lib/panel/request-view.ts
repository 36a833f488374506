import type { RequestState } from '../state/client-state';

/** How long until a request expires, for display only: the runtime's clock decides. */
export function remainingText(expiresAt: number | undefined, now: number): string | undefined {
  if (expiresAt === undefined) return undefined;
  const seconds = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

const EXPIRED_BECAUSE: Record<NonNullable<RequestState['cause']>, string> = {
  timeout: 'Expired: nobody answered in time.',
  'turn-ended': 'Expired: the turn ended.',
  'context-lost': 'Expired: the extension restarted; asked again below.',
};

/** The line a settled request shows instead of its buttons. */
export function settledText(request: RequestState): string {
  switch (request.status) {
    case 'allowed':
      return request.scope === 'target-session' ? 'Allowed for this target in this session.' : 'Allowed once.';
    case 'denied':
      return 'Denied: the call was not run.';
    case 'answered':
      return `Answered: ${typeof request.answer === 'string' ? request.answer : JSON.stringify(request.answer)}`;
    case 'expired':
      return request.cause ? EXPIRED_BECAUSE[request.cause] : 'Expired.';
    case 'pending':
      return 'Waiting for your answer.';
  }
}

/** The requests of one turn in the order they were asked, keyed by the tool call they belong to. */
export function requestsByToolCall(
  requests: Record<string, RequestState>,
  turnId: string,
): Map<string, RequestState[]> {
  const byCall = new Map<string, RequestState[]>();
  for (const request of Object.values(requests)) {
    if (request.turnId !== turnId || !request.toolCallId) continue;
    byCall.set(request.toolCallId, [...(byCall.get(request.toolCallId) ?? []), request]);
  }
  return byCall;
}
