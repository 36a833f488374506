import type { McpAppLogEntry } from '@/lib/stage/mcp-app-bridge';
import { mcpAppLogLine } from '@/lib/stage/mcp-app-log-line';

/** Lines of an app's log (`notifications/message`) the stage keeps and shows; older ones are counted only. */
const MAX_LOG_LINES = 50;

/** The current app's log, kept in the stage bar's "App log" (the newest last), never sent to the runtime. */
export class McpAppLog {
  private lines = 0;

  constructor(private readonly appLog: HTMLDetailsElement) {}

  show(entry: McpAppLogEntry): void {
    this.lines += 1;
    document.documentElement.dataset.appLogs = String(this.lines);
    this.appLog.hidden = false;
    this.appLog.querySelector('summary')!.textContent = `App log (${this.lines})`;
    const list = this.appLog.querySelector('ol')!;
    const line = document.createElement('li');
    line.textContent = mcpAppLogLine(entry);
    list.append(line);
    while (list.childElementCount > MAX_LOG_LINES) list.firstElementChild?.remove();
  }

  clear(): void {
    this.lines = 0;
    delete document.documentElement.dataset.appLogs;
    this.appLog.hidden = true;
    this.appLog.open = false;
    this.appLog.querySelector('ol')!.replaceChildren();
  }
}
