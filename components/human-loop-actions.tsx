import { createContext, useContext } from 'react';
import type { CommandState, RequestState } from '@/lib/state/client-state';

export type DecisionScope = 'once' | 'target-session';

/** What a card can ask the runtime to record; each returns the runtime's word, or an error message to show. */
export interface HumanLoopActions {
  decide(request: RequestState, decision: 'allow' | 'deny', scope: DecisionScope): Promise<string | undefined>;
  answer(request: RequestState, answer: string | number): Promise<string | undefined>;
  /** Takes back a queued steer; its text returns to the composer. */
  withdraw(command: CommandState): Promise<string | undefined>;
}

const unavailable = async () => 'The panel is not connected.';

export const HumanLoopContext = createContext<HumanLoopActions>({
  decide: unavailable,
  answer: unavailable,
  withdraw: unavailable,
});

export function useHumanLoopActions(): HumanLoopActions {
  return useContext(HumanLoopContext);
}
