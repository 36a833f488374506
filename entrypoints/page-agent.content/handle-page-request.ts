import {
  PAGE_WIRE_VERSION,
  pageRequestSchema,
  type PageReply,
  type PageRequest,
  type PageToolResult,
} from '@/lib/protocol/page-wire';
import { actOnPage } from './act-on-page';
import { agentState } from './agent-state';
import { setActingBadge } from './acting-badge';
import { observePage } from './observe-page';
import { callPageTool, listPageTools } from './page-tools-client';
import { readPageEvidence } from './read-page-evidence';

type CallToolRequest = Extract<PageRequest, { type: 'page/call-tool' }>;

function toolFailure(code: Extract<PageToolResult, { ok: false }>['code'], reason: string): PageToolResult {
  return { type: 'page/tool-result', ok: false, code, reason };
}

async function callTool(request: CallToolRequest): Promise<PageToolResult> {
  if (request.documentId !== agentState().documentId)
    return toolFailure('STALE_OBSERVATION', 'The page navigated or reloaded since the observation.');
  const listed = await listPageTools();
  if (!listed.bridge) return toolFailure('NO_BRIDGE', 'The page-tools bridge is not in this page.');
  if (!listed.tools.some((tool) => tool.name === request.name))
    return toolFailure('NOT_FOUND', `The page offers no tool "${request.name}".`);
  const timeoutMs = request.timeoutMs ?? 10_000;
  const called = await callPageTool(request.name, request.arguments, timeoutMs);
  if (!called.answered) return toolFailure('WAIT_TIMEOUT', `"${request.name}" did not answer within ${timeoutMs} ms.`);
  if (!called.ok) return toolFailure('TOOL_ERROR', called.reason);
  return { type: 'page/tool-result', ok: true, result: called.result };
}

/** Every message is parsed before anything reads it; an unparsable one gets `page/error`. */
export async function handlePageRequest(message: unknown): Promise<PageReply> {
  const parsed = pageRequestSchema.safeParse(message);
  if (!parsed.success)
    return { type: 'page/error', reason: `Not a page request: ${parsed.error.message.slice(0, 1500)}` };
  const request = parsed.data;
  switch (request.type) {
    case 'page/ping':
      return { type: 'page/pong', version: PAGE_WIRE_VERSION, documentId: agentState().documentId, url: location.href };
    case 'page/observe': {
      const observation = await observePage(request);
      if (observation === undefined)
        return { type: 'page/error', reason: `NOT_FOUND: ${request.scope} is no longer in the page.` };
      return { type: 'page/observation', observation };
    }
    case 'page/act':
      return actOnPage(request);
    case 'page/call-tool':
      return callTool(request);
    case 'page/evidence':
      return readPageEvidence();
    case 'page/badge':
      setActingBadge(request.acting);
      return { type: 'page/badge', acting: request.acting };
  }
}
