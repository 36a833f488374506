import type { z } from 'zod';
import type { pageStopRequestSchema } from '@/lib/protocol/page-wire';
import { contentRuntime } from './extension-api';

/** The badge's host element: the page agent leaves it out of observations and hit tests. */
export const BADGE_TAG = 'splitbrain-acting-badge';

const STYLE = `
:host { all: initial; position: fixed; top: 8px; right: 8px; z-index: 2147483647; }
div { display: flex; gap: 8px; align-items: center; padding: 4px 6px 4px 10px; border-radius: 999px;
  background: #1f2937; color: #fff; font: 600 12px/1.4 system-ui, sans-serif; box-shadow: 0 2px 8px rgba(0,0,0,.3); }
button { all: initial; cursor: pointer; padding: 2px 10px; border-radius: 999px; background: #dc2626; color: #fff;
  font: 600 12px/1.4 system-ui, sans-serif; }
`;

let host: HTMLElement | undefined;

function stop(): void {
  const request: z.infer<typeof pageStopRequestSchema> = { type: 'page/stop' };
  void Promise.resolve(contentRuntime()?.sendMessage?.(request)).catch(() => undefined);
  setActingBadge(false);
}

/** While the agent acts in this page, a small badge says so, with a Stop that cancels the turn as the panel's does. */
export function setActingBadge(acting: boolean): void {
  if (!acting) {
    host?.remove();
    host = undefined;
    return;
  }
  if (host?.isConnected) return;
  host = document.createElement(BADGE_TAG);
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = STYLE;
  const badge = document.createElement('div');
  badge.setAttribute('role', 'status');
  badge.textContent = 'Splitbrain is acting';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Stop';
  button.addEventListener('click', stop);
  badge.append(button);
  root.append(style, badge);
  document.documentElement.append(host);
}
