import { createContext, useContext } from 'react';
import type { RequestState } from '@/lib/state/client-state';

export type DecisionScope = 'once' | 'target-session';

/** What a card can ask the runtime to record; each returns the runtime's word, or an error message to show. */
export interface HumanLoopActions {
  decide(request: RequestState, decision: 'allow' | 'deny', scope: DecisionScope): Promise<string | undefined>;
  answer(request: RequestState, answer: string | number): Promise<string | undefined>;
}

const unavailable = async () => 'The panel is not connected.';

export const HumanLoopContext = createContext<HumanLoopActions>({ decide: unavailable, answer: unavailable });

export function useHumanLoopActions(): HumanLoopActions {
  return useContext(HumanLoopContext);
}
