import type { JsonObject } from '../protocol/json-value';
import type { McpAppToolAnswer } from '../protocol/mcp-app-wire';
import type { ToolExecutionResult } from '../protocol/tool-execution-request';
import { errorText } from '../protocol/error-text';
import type { McpAppToolCall } from '../targets/stage-link';
import type { AppToolCall } from './app-tool-call';

/** An app open in the stage: the conversation it was opened in and the server whose tools it may call. */
export interface OpenedMcpApp {
  sessionId: string;
  serverId: string;
  title: string;
}

export interface McpAppCallsDependencies {
  appToolName(serverId: string, toolName: string): Promise<string | undefined>;
  runAppToolCall(call: AppToolCall): Promise<ToolExecutionResult>;
  answer(targetId: string, requestId: string, answer: McpAppToolAnswer): void;
}

/** At most this many apps are remembered; the stage shows one at a time, older ones only answer "closed". */
const MAX_APPS = 20;

/** A tool output of this extension as the CallToolResult an app expects: its text, structured content, error flag. */
export function callToolResultOf(result: ToolExecutionResult): McpAppToolAnswer {
  if (result.status === 'waiting') return { error: 'The call is still waiting for the user.' };
  const output = (typeof result.output === 'object' && result.output !== null ? result.output : {}) as JsonObject;
  if (result.status === 'denied' || result.status === 'unknown')
    return { error: String(output.reason ?? output.error ?? result.status) };
  const text = typeof output.text === 'string' ? output.text : typeof output.error === 'string' ? output.error : '';
  return {
    result: {
      content: [{ type: 'text', text }],
      ...(output.structuredContent !== undefined ? { structuredContent: output.structuredContent } : {}),
      ...(result.status === 'failed' ? { isError: true } : {}),
    },
  };
}

/** The runtime's side of MCP Apps' own tool calls: which app is open where, and each of its calls run and answered. */
export class McpAppCalls {
  private readonly apps = new Map<string, OpenedMcpApp>();

  constructor(private readonly dependencies: McpAppCallsDependencies) {}

  opened(targetId: string, app: OpenedMcpApp): void {
    this.apps.set(targetId, app);
    for (const oldest of [...this.apps.keys()].slice(0, Math.max(0, this.apps.size - MAX_APPS)))
      this.apps.delete(oldest);
  }

  async call(targetId: string, requestId: string, call: McpAppToolCall): Promise<void> {
    this.dependencies.answer(targetId, requestId, await this.answerOf(targetId, call));
  }

  private async answerOf(targetId: string, call: McpAppToolCall): Promise<McpAppToolAnswer> {
    const app = this.apps.get(targetId);
    // After a restart the app's conversation is not known: the call is refused rather than run elsewhere.
    if (!app) return { error: 'This app is not known to the extension any more; ask for it to be opened again.' };
    try {
      const toolName = await this.dependencies.appToolName(app.serverId, call.name);
      if (!toolName) return { error: `The app's server offers no tool named ${call.name}.` };
      const result = await this.dependencies.runAppToolCall({
        sessionId: app.sessionId,
        note: `The MCP App “${app.title}” calls ${call.name} with ${JSON.stringify(call.arguments).slice(0, 200)}.`,
        toolName,
        input: call.arguments,
      });
      return callToolResultOf(result);
    } catch (error) {
      return { error: `The call failed: ${errorText(error)}` };
    }
  }
}
