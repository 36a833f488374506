/** How an agent turn ended. */
export type TurnOutcome = 'stop' | 'step-cap' | 'repeated-call' | 'budget' | 'aborted' | 'interrupted' | 'paused';
