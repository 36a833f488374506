import { createContext, useContext } from 'react';
import type { JobView } from '@/lib/state/job-view';

/** What a job card can ask the runtime; each returns an error message to show, or nothing. */
export interface JobActions {
  stop(job: JobView): Promise<string | undefined>;
}

export const JobActionsContext = createContext<JobActions>({ stop: async () => 'The panel is not connected.' });

export function useJobActions(): JobActions {
  return useContext(JobActionsContext);
}
