import '@/entrypoints/shared/zod-setup';
import { createRoot } from 'react-dom/client';

/** A macrotask boundary: the browser paints and handles input between the stages below. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The panel's code is evaluated in stages, each in its own task, so that no stage holds the main thread for long:
 * the wire schemas (zod builds every schema when its module runs), then the settings and tool schemas, then
 * markdown (unified, micromark and their extensions), then the app. Until then the panel shows the app's own busy state.
 */
async function loadApp() {
  await nextTask();
  await import('@/lib/protocol/runtime-message');
  await nextTask();
  await import('../shared/endpoint-storage');
  await nextTask();
  await import('@/components/markdown/markdown-block');
  await nextTask();
  return (await import('./side-panel-app')).SidePanelApp;
}

const root = createRoot(document.getElementById('root')!);
root.render(<div className="chat-panel" aria-busy="true" />);
void loadApp().then((SidePanelApp) => root.render(<SidePanelApp />));
