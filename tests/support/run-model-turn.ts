import type { DemoConversation, DemoMessage, DemoReply } from '../../scripts/demo-model/demo-conversation';

/** One tool call the harness made for the demo, with the output the tools gave back. */
export interface HarnessCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly output: unknown;
}

/**
 * Runs one turn of a model that answers step by step (the demo model) against tools: each tool-call reply is
 * executed and its output appended, until the model answers in text. Used by the table test with a real runtime.
 */
export async function runModelTurn(options: {
  readonly model: (conversation: DemoConversation) => DemoReply;
  readonly tools: readonly string[];
  readonly history: DemoMessage[];
  readonly request: string;
  readonly execute: (name: string, input: Record<string, unknown>, toolCallId: string) => Promise<unknown>;
  readonly maxSteps?: number;
}): Promise<{ calls: HarnessCall[]; text: string }> {
  const { history } = options;
  history.push({ role: 'user', text: options.request });
  const calls: HarnessCall[] = [];
  for (let step = 0; step < (options.maxSteps ?? 10); step += 1) {
    const reply = options.model({ tools: options.tools, messages: history });
    if (reply.kind === 'text') {
      history.push({ role: 'assistant', text: reply.text, toolCalls: [] });
      return { calls, text: reply.text };
    }
    const toolCalls = reply.calls.map((toolCall, index) => ({
      id: `call-${history.length}-${index}`,
      ...toolCall,
    }));
    history.push({ role: 'assistant', text: '', toolCalls });
    for (const toolCall of toolCalls) {
      const output = await options.execute(toolCall.name, toolCall.arguments, toolCall.id);
      calls.push({ name: toolCall.name, arguments: toolCall.arguments, output });
      history.push({ role: 'tool', toolCallId: toolCall.id, output });
    }
  }
  throw new Error(`No text answer after ${options.maxSteps ?? 10} steps.`);
}
