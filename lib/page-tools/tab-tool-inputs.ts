import { z } from 'zod';

const tabId = z.number().int().min(0).describe('A tabId from listTabs or from an observation.');

/** The inputs of the tools that list, open, switch and close the tabs of a conversation. */
export const tabToolInputSchemas = {
  listTabs: z.object({}),
  openTab: z.object({ url: z.string().min(1).max(4000).describe('An http(s) address to open in a new tab.') }),
  switchTab: z.object({ tabId }),
  closeTab: z.object({ tabId }),
} as const;

export type TabToolName = keyof typeof tabToolInputSchemas;
export type TabToolInput<TName extends TabToolName> = z.infer<(typeof tabToolInputSchemas)[TName]>;

export function isTabToolName(name: string): name is TabToolName {
  return Object.hasOwn(tabToolInputSchemas, name);
}
