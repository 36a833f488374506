import { createContext, useContext } from 'react';

/** What a fact notice can ask: to be put away (a `notify/dismissed` event; the fact stays in the log). */
export interface FactActions {
  dismiss(notificationId: string): void;
}

export const FactActionsContext = createContext<FactActions>({ dismiss: () => undefined });

export function useFactActions(): FactActions {
  return useContext(FactActionsContext);
}
