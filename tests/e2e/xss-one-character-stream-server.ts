import { createServer, type Server } from 'node:http';
import { encodeOpenAIChatStream } from '../../scripts/scripted-model-server/openai-chat-encoder';
import type { ModelStreamEvent } from '../../scripts/scripted-model-server/model-stream-event';

export interface OneCharacterStreamServer {
  /** The OpenAI base URL, `http://127.0.0.1:PORT/v1`. */
  url: string;
  origin: string;
  /** The answer to every chat completion request, streamed one code point per frame. */
  setAnswer(text: string): void;
  close(): Promise<void>;
}

/**
 * An OpenAI chat completions endpoint that streams its answer one character per SSE frame, each frame
 * written and flushed on its own after `delayMs`, so that the panel can render the answer at every cut.
 */
export async function startOneCharacterStreamServer(delayMs: number): Promise<OneCharacterStreamServer> {
  let answer = '';
  const server: Server = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', '*');
    if (request.method === 'OPTIONS') {
      response.writeHead(204);
      response.end();
      return;
    }
    request.resume();
    request.on('end', () => {
      const events: ModelStreamEvent[] = [
        ...Array.from(answer).map((character): ModelStreamEvent => ({ type: 'text-delta', text: character })),
        { type: 'finish', reason: 'stop' },
      ];
      const frames = encodeOpenAIChatStream(events, {
        completionId: 'chatcmpl-xss',
        created: 0,
        model: 'scripted-model',
        usage: { promptTokens: 1, completionTokens: 1 },
      });
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.flushHeaders();
      let index = 0;
      const writeNext = () => {
        if (response.destroyed) return;
        if (index >= frames.length) {
          response.end();
          return;
        }
        response.write(frames[index]);
        index += 1;
        setTimeout(writeNext, delayMs);
      };
      writeNext();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: `${origin}/v1`,
    origin,
    setAnswer: (text) => {
      answer = text;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
