import { isPageToolName } from '../page-tools/page-tool-inputs';
import type { ClientState } from '../state/client-state';

/** Whether the conversation has read or acted on a page: then a resume observes the page afresh for the model. */
export function usesPageTools(state: ClientState): boolean {
  return Object.values(state.toolCalls).some((call) => isPageToolName(call.toolName));
}
