import { useEffect, useRef } from 'react';
import { foundTurnBranchSwitch } from '@/lib/panel/found-turn-branch';
import type { TurnJump } from '@/lib/panel/turn-jump';
import { errorText } from '@/lib/protocol/error-text';
import type { ClientState } from '@/lib/state/client-state';
import { callRuntime } from '../shared/call-runtime';

/**
 * Once the conversation a search hit opened is loaded, shows the branch of the found turn when it is not in view;
 * once per jump, and not while a turn runs (the model's branch must not change under it).
 */
export function useFoundTurnBranch(
  state: ClientState | undefined,
  jumpTo: TurnJump | undefined,
  running: boolean,
  report: (message: string) => void,
): void {
  const handled = useRef<number>(undefined);
  useEffect(() => {
    const turnId = jumpTo?.turnId;
    if (!state || !jumpTo || !turnId || running || jumpTo.sessionId !== state.sessionId) return;
    if (handled.current === jumpTo.nonce || !(turnId in state.branches.parents)) return;
    handled.current = jumpTo.nonce;
    const switched = foundTurnBranchSwitch(state, turnId, Date.now());
    if (!switched) return;
    const request = { type: 'events/append', sessionId: state.sessionId, batchId: crypto.randomUUID() } as const;
    callRuntime({ ...request, events: [switched] }).catch((reason: unknown) =>
      report(`Could not show the branch of the message found: ${errorText(reason)}`),
    );
  }, [state, jumpTo, running, report]);
}
