export type ModelFinishReason = 'stop' | 'tool-calls';

/**
 * Format-neutral pieces of one model response. Every wire-format encoder
 * (OpenAI chat, and later Responses, Anthropic, Gemini, AI SDK UI) turns a
 * list of these into bytes. A list without a `finish` event is a truncated
 * response: encoders then emit no closing frames.
 */
export type ModelStreamEvent =
  | { readonly type: 'reasoning-delta'; readonly text: string }
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call-start'; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: 'tool-call-delta'; readonly index: number; readonly argumentsDelta: string }
  | { readonly type: 'tool-call-end'; readonly index: number }
  | { readonly type: 'finish'; readonly reason: ModelFinishReason };
