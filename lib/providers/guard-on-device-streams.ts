import { fenceSafeChunks } from './fence-safe-chunks';

interface PromptSession {
  promptStreaming(...args: unknown[]): ReadableStream<string>;
}
interface PromptApi {
  create(...args: unknown[]): Promise<PromptSession>;
}

const guarded = new WeakSet<object>();

async function* chunksOf(stream: ReadableStream<string>, reader = stream.getReader()): AsyncGenerator<string> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function streamOf(chunks: AsyncGenerator<string>, source: ReadableStream<string>): ReadableStream<string> {
  return new ReadableStream<string>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await chunks.return(undefined);
      await source.cancel(reason).catch(() => undefined);
    },
  });
}

/**
 * Makes every session of the Prompt API stream fence-safe chunks (see `fence-safe-chunks.ts`), so the
 * provider's tool-call parser cannot spin on a chunk that ends inside a closing fence. Idempotent.
 */
export function guardOnDeviceStreams(scope: { LanguageModel?: PromptApi }): void {
  const api = scope.LanguageModel;
  if (!api || guarded.has(api)) return;
  guarded.add(api);
  const create = api.create.bind(api);
  api.create = async (...args: unknown[]) => {
    const session = await create(...args);
    const promptStreaming = session.promptStreaming.bind(session);
    session.promptStreaming = (...promptArgs: unknown[]) => {
      const source = promptStreaming(...promptArgs);
      return streamOf(fenceSafeChunks(chunksOf(source)), source);
    };
    return session;
  };
}
