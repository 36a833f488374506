/** What the demo model reads of a request: the tools it may call and the conversation, reduced to neutral roles. */
export interface DemoConversation {
  /** Names of the tools the request offers. */
  readonly tools: readonly string[];
  readonly messages: readonly DemoMessage[];
}

export type DemoMessage =
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly text: string; readonly toolCalls: readonly DemoToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly output: unknown };

export interface DemoToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** One call the demo made in the current turn, with the output it got back (undefined while none came). */
export interface DemoCallRecord {
  readonly name: string;
  readonly arguments: unknown;
  readonly output: unknown;
}

/** The reply of one step: either tool calls (without ids: the server gives each a unique one) or text. */
export type DemoReply =
  | { readonly kind: 'tool-calls'; readonly calls: readonly { name: string; arguments: Record<string, unknown> }[] }
  | { readonly kind: 'text'; readonly text: string };
