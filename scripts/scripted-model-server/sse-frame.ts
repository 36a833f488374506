export interface SseFrameOptions {
  /** Adds an `event:` line, as the Anthropic and OpenAI Responses streams have. */
  readonly event?: string;
  /** `\r\n` for Google, whose servers end SSE lines that way. */
  readonly lineEnding?: '\n' | '\r\n';
}

/** One server-sent event whose `data:` line is the JSON of the payload. */
export function sseFrame(payload: unknown, options: SseFrameOptions = {}): string {
  return sseFrameWithData(JSON.stringify(payload), options);
}

/** One server-sent event with the data line verbatim, e.g. `[DONE]` or deliberately broken JSON. */
export function sseFrameWithData(data: string, options: SseFrameOptions = {}): string {
  const lineEnding = options.lineEnding ?? '\n';
  const eventLine = options.event === undefined ? '' : `event: ${options.event}${lineEnding}`;
  return `${eventLine}data: ${data}${lineEnding}${lineEnding}`;
}
