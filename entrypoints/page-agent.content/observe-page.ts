import { renderPageTree } from '@/lib/page-observation/render-page-tree';
import type { PageObservationData, PageRefInfo, PageViewport } from '@/lib/protocol/page-wire';
import { accessibilityTree } from './accessibility-tree';
import { agentState, elementForRef, takeEvents } from './agent-state';
import { modalState } from './modal-state';
import { listPageTools } from './page-tools-client';

export function viewportNow(): PageViewport {
  return {
    width: innerWidth,
    height: innerHeight,
    scrollX,
    scrollY,
    devicePixelRatio,
    visualScale: visualViewport?.scale ?? 1,
  };
}

export interface ObserveOptions {
  scope?: string;
  find?: string;
  maxTokens?: number;
}

/** This frame's observation; undefined when `scope` names a ref that left the page. */
export async function observePage(options: ObserveOptions): Promise<PageObservationData | undefined> {
  const root = options.scope === undefined ? (document.body ?? document.documentElement) : elementForRef(options.scope);
  if (root === undefined || !root.isConnected) return undefined;
  const tree = accessibilityTree(root);
  const rendered = renderPageTree(tree.roots, {
    maxTokens: options.maxTokens,
    find: options.find,
    nodeLimitReached: tree.nodeLimitReached,
  });
  const refs: Record<string, PageRefInfo> = {};
  for (const ref of rendered.refs) {
    const info = tree.refs.get(ref);
    if (info !== undefined) refs[ref] = info;
  }
  const shown = new Set(rendered.refs);
  const tools = await listPageTools();
  return {
    documentId: agentState().documentId,
    url: location.href,
    title: document.title,
    capturedAt: Date.now(),
    viewport: viewportNow(),
    snapshot: rendered.snapshot,
    snapshotTokens: rendered.tokens,
    truncated: rendered.truncated,
    refs,
    modal: modalState(),
    events: takeEvents(),
    pageTools: tools.tools,
    childFrames: tree.childFrames.filter((frame) => shown.has(frame.ref)),
    hiddenTextRefs: rendered.refs.filter((ref) => refs[ref]?.hiddenText === true),
    pageToolsBridge: tools.bridge,
  };
}
