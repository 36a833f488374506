import '@/entrypoints/shared/zod-setup';
import browser from 'webextension-polyfill';
import { openReconnectingPort } from '@/lib/protocol/reconnecting-port';
import {
  stageCommandMessageSchema,
  type StageCommandMessage,
  type StageReportMessage,
} from '@/lib/protocol/runtime-message';
import { AppAsks } from '@/lib/stage/app-asks';
import { StageCallRecord } from '@/lib/stage/stage-call-record';
import { colorScheme, onColorSchemeChange } from './color-scheme';
import { McpAppDisplay } from './mcp-app-display';
import { McpAppLog } from './mcp-app-log';
import { stageCommandHandler } from './stage-command-handler';
import { stageElements } from './stage-elements';
import { StageHost } from './stage-host';

const elements = stageElements();
const record = new StageCallRecord(Date.now());
const asks = new AppAsks({ send: (message) => report(message), newId: () => crypto.randomUUID() });
const display: McpAppDisplay = new McpAppDisplay(elements, () => host.currentApp);
const log = new McpAppLog(elements.appLog);
const host: StageHost = new StageHost({ elements, asks, display, log, report: (message) => report(message) });

elements.fullscreenExit.addEventListener('click', () => display.showIn('inline'));

/** The current app's context follows the stage: its colour scheme and the size of its container. */
onColorSchemeChange(() => host.currentApp?.bridge.updateHostContext({ theme: colorScheme() }));
new ResizeObserver(() =>
  host.currentApp?.bridge.updateHostContext({ containerDimensions: display.containerDimensions() }),
).observe(elements.frameHost);

// A closing tab cannot wait: the app is told, and whatever it answers is not awaited.
window.addEventListener('pagehide', () => void host.teardownApp('The stage tab is closing.', 0));
window.addEventListener('message', (event) => host.receive(event));

let reconnects = 0;
const port = openReconnectingPort<StageReportMessage, StageCommandMessage>({
  name: 'stage',
  connect: (name) => browser.runtime.connect({ name }),
  schema: stageCommandMessageSchema,
  onMessage: stageCommandHandler({
    host,
    record,
    asks,
    report,
    closePort: () => port.close(),
    extensionOrigin: new URL(browser.runtime.getURL('/')).origin,
  }),
  onDisconnect: () => asks.portLost(),
  onReconnect: () => {
    hello();
    // Visible to a test that must act only once this stage is connected to the restarted worker.
    document.documentElement.dataset.reconnects = String(++reconnects);
    asks.portReopened();
  },
});

function report(message: StageReportMessage): void {
  port.post(message);
}

/** Sent on every new port, so a restarted runtime learns what this stage did and holds. */
function hello(): void {
  report(record.hello(host.shown));
}

hello();
