import type { JsonValue } from '@/lib/protocol/json-value';
import {
  PAGE_TOOLS_REPLY_EVENT,
  PAGE_TOOLS_REQUEST_EVENT,
  pageToolsBridgeReplySchema,
  type PageToolsBridgeReply,
  type PageToolsBridgeRequest,
} from '@/lib/protocol/page-tools-bridge-wire';
import type { PageTool } from '@/lib/protocol/page-wire';

function parseReply(detail: unknown, id: string): PageToolsBridgeReply | undefined {
  if (typeof detail !== 'string' || detail.length > 2_000_000) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(detail);
  } catch {
    return undefined;
  }
  const parsed = pageToolsBridgeReplySchema.safeParse(value);
  return parsed.success && parsed.data.id === id ? parsed.data : undefined;
}

/** Asks the main-world bridge; undefined when it does not answer in time (not injected, or the page broke it). */
function ask(request: PageToolsBridgeRequest, timeoutMs: number): Promise<PageToolsBridgeReply | undefined> {
  return new Promise((resolve) => {
    const onReply = (event: Event) => {
      const reply = parseReply((event as CustomEvent).detail, request.id);
      if (reply === undefined) return;
      done(reply);
    };
    const done = (reply: PageToolsBridgeReply | undefined) => {
      document.removeEventListener(PAGE_TOOLS_REPLY_EVENT, onReply);
      clearTimeout(timer);
      resolve(reply);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    document.addEventListener(PAGE_TOOLS_REPLY_EVENT, onReply);
    document.dispatchEvent(new CustomEvent(PAGE_TOOLS_REQUEST_EVENT, { detail: JSON.stringify(request) }));
  });
}

export async function listPageTools(): Promise<{ bridge: boolean; tools: PageTool[] }> {
  const reply = await ask({ id: crypto.randomUUID(), kind: 'list' }, 300);
  if (reply === undefined || reply.kind !== 'list') return { bridge: false, tools: [] };
  return { bridge: true, tools: reply.tools };
}

export async function callPageTool(
  name: string,
  args: JsonValue,
  timeoutMs: number,
): Promise<
  { answered: false } | { answered: true; ok: true; result: JsonValue } | { answered: true; ok: false; reason: string }
> {
  const reply = await ask({ id: crypto.randomUUID(), kind: 'call', name, arguments: args }, timeoutMs);
  if (reply === undefined || reply.kind !== 'call') return { answered: false };
  return reply.ok
    ? { answered: true, ok: true, result: reply.result }
    : { answered: true, ok: false, reason: reply.reason };
}
