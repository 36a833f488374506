import '@/entrypoints/shared/zod-setup';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { agentState } from './agent-state';
import { contentRuntime } from './extension-api';
import { handlePageRequest } from './handle-page-request';
import { watchPageEvents } from './page-events';
import { errorText } from '@/lib/protocol/error-text';

/*
 * The page agent: injected by the runtime with `scripting.executeScript({ files: ['/content-scripts/page-agent.js'],
 * target: { tabId, allFrames | frameIds } })` and answering the page wire (lib/protocol/page-wire.ts) for its own
 * frame. Injecting it again into the same document is harmless: state and the listener live on the isolated world.
 */
export default defineContentScript({
  registration: 'runtime',
  noScriptStartedPostMessage: true,
  main() {
    const state = agentState();
    const runtime = contentRuntime();
    if (state.listening || runtime === undefined) return;
    state.listening = true;
    watchPageEvents();
    runtime.onMessage.addListener((message, sender, sendResponse) => {
      if (sender.id !== undefined && sender.id !== runtime.id) return undefined;
      if (
        typeof message !== 'object' ||
        message === null ||
        !String((message as { type?: unknown }).type).startsWith('page/')
      )
        return undefined;
      void handlePageRequest(message).then(sendResponse, (error: unknown) =>
        sendResponse({
          type: 'page/error',
          reason: errorText(error).slice(0, 2000),
        }),
      );
      return true;
    });
  },
});
