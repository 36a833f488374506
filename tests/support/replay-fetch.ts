/** A model response captured byte for byte, with whatever reading its body failed with. */
export interface RecordedResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Uint8Array;
  /** Set when the body broke off (a connection reset, say) after `body`. */
  failure?: unknown;
}

/** Reads a whole response, keeping the bytes that arrived before any failure. */
export async function recordResponse(response: Response): Promise<RecordedResponse> {
  const pieces: Uint8Array[] = [];
  let failure: unknown;
  const reader = response.body?.getReader();
  try {
    for (;;) {
      if (!reader) break;
      const { done, value } = await reader.read();
      if (done) break;
      pieces.push(value);
    }
  } catch (error) {
    failure = error;
  }
  const body = new Uint8Array(pieces.reduce((total, piece) => total + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    body.set(piece, offset);
    offset += piece.length;
  }
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body,
    ...(failure === undefined ? {} : { failure }),
  };
}

/** A fetch that goes to the network and appends each response, as recorded, to `into`. */
export function recordingFetch(into: RecordedResponse[], target: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const recorded = await recordResponse(await target(input, init));
    into.push(recorded);
    return replayedResponse(recorded, (bytes) => [bytes]);
  };
}

/**
 * A fetch that answers with recorded responses in order, each body cut into the pieces `cut` returns and
 * handed out one piece per read, so parsers meet split frames and split characters.
 */
export function replayFetch(
  responses: readonly RecordedResponse[],
  cut: (bytes: Uint8Array, index: number) => Uint8Array[],
): typeof fetch {
  let next = 0;
  return async (_input, init) => {
    init?.signal?.throwIfAborted();
    const index = next++;
    const recorded = responses[index];
    if (!recorded)
      throw new Error(`Replay has ${responses.length} recorded responses; request ${index + 1} was not recorded.`);
    return replayedResponse(recorded, (bytes) => cut(bytes, index));
  };
}

export function replayedResponse(recorded: RecordedResponse, cut: (bytes: Uint8Array) => Uint8Array[]): Response {
  const pieces = cut(recorded.body);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      if (recorded.failure === undefined) controller.close();
    },
    // A broken connection fails only once everything before it has been read, as on the network.
    pull(controller) {
      if (controller.desiredSize !== null && controller.desiredSize > 0 && recorded.failure !== undefined)
        setTimeout(() => controller.error(recorded.failure), 0);
    },
  });
  return new Response(body, { status: recorded.status, statusText: recorded.statusText, headers: recorded.headers });
}
