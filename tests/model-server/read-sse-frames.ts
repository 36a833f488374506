export interface SseReadResult {
  /** The `data:` payload of every frame, in order. */
  readonly data: string[];
  /** How many separate body chunks the client received. */
  readonly chunkCount: number;
}

/**
 * Reads an SSE body the way a careful client must: one streaming TextDecoder
 * (so UTF-8 characters split across chunks survive) and frames cut at blank lines.
 */
export async function readSseFrames(body: ReadableStream<Uint8Array>): Promise<SseReadResult> {
  const decoder = new TextDecoder();
  const data: string[] = [];
  let buffered = '';
  let chunkCount = 0;
  const takeFrames = (): void => {
    let boundary = buffered.indexOf('\n\n');
    while (boundary !== -1) {
      const frame = buffered.slice(0, boundary);
      buffered = buffered.slice(boundary + 2);
      const dataLines = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length).replace(/^ /, ''));
      if (dataLines.length > 0) data.push(dataLines.join('\n'));
      boundary = buffered.indexOf('\n\n');
    }
  };
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunkCount += 1;
    buffered += decoder.decode(value, { stream: true });
    takeFrames();
  }
  buffered += decoder.decode();
  takeFrames();
  if (buffered.trim() !== '') throw new Error(`Stream ended inside a frame: ${JSON.stringify(buffered)}`);
  return { data, chunkCount };
}
