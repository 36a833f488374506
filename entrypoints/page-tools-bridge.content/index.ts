import { defineContentScript } from 'wxt/utils/define-content-script';
import { PAGE_TOOLS_REPLY_EVENT, PAGE_TOOLS_REQUEST_EVENT } from '@/lib/protocol/page-tools-bridge-events';
import { recordClickListeners } from './record-click-listeners';
import { recordPageEvidence } from './record-page-evidence';
import { answerFileDrops } from './drop-file';
import { errorText } from '@/lib/protocol/error-text';

/*
 * Runs in the page's main world, where `navigator.modelContext` and the page's listeners live: registered to run
 * at document_start on every site the extension may access (entrypoints/shared/page-tools-bridge-registration.ts),
 * and injected with `scripting.executeScript({ world: 'MAIN', files })` into pages loaded before that. It records
 * which elements have click listeners (./record-click-listeners.ts) and what went wrong (./record-page-evidence.ts),
 * and answers the page-agent content script's
 * CustomEvents. It reads the tools from
 * `navigator.modelContextTesting` (Chrome's WebMCP and the MCP-B polyfill) or `navigator.modelContext.listTools()`.
 * Kept free of imports that carry code (zod): the page could tamper with anything here, and the content script
 * validates every reply.
 */

interface ListedTool {
  name?: unknown;
  description?: unknown;
  inputSchema?: unknown;
}

interface ModelContextLike {
  listTools?: () => ListedTool[] | Promise<ListedTool[]>;
  executeTool?: (name: string, args: unknown) => unknown;
  callTool?: (name: string, args: unknown) => unknown;
}

function contexts(): { testing?: ModelContextLike; context?: ModelContextLike } {
  const navigatorWithContext = navigator as Navigator & {
    modelContextTesting?: ModelContextLike;
    modelContext?: ModelContextLike;
  };
  return { testing: navigatorWithContext.modelContextTesting, context: navigatorWithContext.modelContext };
}

function schemaOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

async function listTools(): Promise<unknown[]> {
  const { testing, context } = contexts();
  const source = testing?.listTools ? testing : context?.listTools ? context : undefined;
  if (source?.listTools === undefined) return [];
  const tools = await source.listTools();
  return (Array.isArray(tools) ? tools : []).slice(0, 100).map((tool) => ({
    name: String(tool.name ?? ''),
    description: String(tool.description ?? ''),
    inputSchema: schemaOf(tool.inputSchema),
  }));
}

async function callTool(name: string, args: unknown): Promise<unknown> {
  const { testing, context } = contexts();
  if (testing?.executeTool) return schemaOf(await testing.executeTool(name, JSON.stringify(args)));
  if (context?.executeTool) return await context.executeTool(name, args);
  if (context?.callTool) return await context.callTool(name, args);
  throw new Error('The page offers no way to call its tools.');
}

function reply(value: unknown): void {
  let detail: string;
  try {
    detail = JSON.stringify(value) ?? 'null';
  } catch {
    detail = JSON.stringify({
      ...(value as object),
      ok: false,
      reason: 'The tool returned something that is not JSON.',
    });
  }
  document.dispatchEvent(new CustomEvent(PAGE_TOOLS_REPLY_EVENT, { detail }));
}

async function answer(detail: unknown): Promise<void> {
  if (typeof detail !== 'string') return;
  let request: { id?: unknown; kind?: unknown; name?: unknown; arguments?: unknown };
  try {
    request = JSON.parse(detail);
  } catch {
    return;
  }
  const id = String(request.id ?? '');
  if (request.kind === 'list') {
    const tools = await listTools().catch(() => []);
    reply({ id, kind: 'list', tools });
  } else if (request.kind === 'call') {
    try {
      const result = await callTool(String(request.name), request.arguments);
      reply({ id, kind: 'call', ok: true, result: result === undefined ? null : result });
    } catch (error) {
      reply({
        id,
        kind: 'call',
        ok: false,
        reason: errorText(error).slice(0, 2000),
      });
    }
  }
}

export default defineContentScript({
  registration: 'runtime',
  world: 'MAIN',
  noScriptStartedPostMessage: true,
  main() {
    const flag = Symbol.for('splitbrain.page-tools-bridge');
    const holder = window as unknown as Record<symbol, boolean>;
    if (holder[flag]) return;
    holder[flag] = true;
    recordClickListeners();
    recordPageEvidence();
    answerFileDrops();
    document.addEventListener(PAGE_TOOLS_REQUEST_EVENT, (event) => void answer((event as CustomEvent).detail));
  },
});
