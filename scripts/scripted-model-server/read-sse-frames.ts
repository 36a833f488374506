export interface SseFrame {
  /** The `event:` field, when the frame has one. */
  readonly event?: string;
  /** The frame's `data:` lines joined with newlines. */
  readonly data: string;
}

export interface SseReadResult {
  /** The `data:` payload of every frame, in order. */
  readonly data: string[];
  /** Every frame with data, with its event name. */
  readonly frames: SseFrame[];
  /** How many separate body chunks the client received. */
  readonly chunkCount: number;
}

/**
 * Reads an SSE body the way a careful client must: one streaming TextDecoder
 * (so UTF-8 characters split across chunks survive), lines ended by LF, CRLF
 * or CR (Google sends CRLF, which may itself be split across chunks), and
 * frames cut at blank lines.
 */
export async function readSseFrames(body: ReadableStream<Uint8Array>): Promise<SseReadResult> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return { ...decodeSseChunks(chunks), chunkCount: chunks.length };
}

/** The frames of an SSE byte stream that arrived in the given chunks. */
export function decodeSseChunks(chunks: readonly Uint8Array[]): { data: string[]; frames: SseFrame[] } {
  const decoder = new TextDecoder();
  const frames: SseFrame[] = [];
  let buffered = '';
  const takeFrames = (isEnd: boolean): void => {
    // A trailing CR may be the first half of a CRLF still on its way.
    const complete = !isEnd && buffered.endsWith('\r') ? buffered.slice(0, -1) : buffered;
    const normalized = complete.replace(/\r\n?/g, '\n');
    let rest = normalized;
    let boundary = rest.indexOf('\n\n');
    while (boundary !== -1) {
      const frame = parseFrame(rest.slice(0, boundary));
      if (frame !== undefined) frames.push(frame);
      rest = rest.slice(boundary + 2);
      boundary = rest.indexOf('\n\n');
    }
    buffered = rest + buffered.slice(complete.length);
  };
  for (const chunk of chunks) {
    buffered += decoder.decode(chunk, { stream: true });
    takeFrames(false);
  }
  buffered += decoder.decode();
  takeFrames(true);
  if (buffered.trim() !== '') throw new Error(`Stream ended inside a frame: ${JSON.stringify(buffered)}`);
  return { data: frames.map((frame) => frame.data), frames };
}

function parseFrame(text: string): SseFrame | undefined {
  const lines = text.split('\n');
  const field = (name: string): string[] =>
    lines.filter((line) => line.startsWith(`${name}:`)).map((line) => line.slice(name.length + 1).replace(/^ /, ''));
  const dataLines = field('data');
  if (dataLines.length === 0) return undefined;
  const [event] = field('event');
  return event === undefined ? { data: dataLines.join('\n') } : { event, data: dataLines.join('\n') };
}
