import { callPortRequestSchema, type CallPortReply, type RuntimeResponse } from '../protocol/runtime-message';
import { errorText } from '../protocol/error-text';

/** The part of a runtime port the runtime uses, as the background hands it over. */
export interface CallPortLink {
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
}

/** Answers every request on a `calls` port by its `callId`; a message that is not a request is ignored. */
export function serveCallPort(link: CallPortLink, answer: (request: unknown) => Promise<RuntimeResponse>): void {
  link.onMessage((raw) => {
    const parsed = callPortRequestSchema.safeParse(raw);
    if (!parsed.success) return;
    const { callId, request } = parsed.data;
    const answered = answer(request).catch((error: unknown): RuntimeResponse => ({
      ok: false,
      error: errorText(error),
    }));
    void answered.then((response) => {
      const reply: CallPortReply = { type: 'call/response', callId, response };
      try {
        link.postMessage(reply);
      } catch {
        // The page that asked went away; nobody is left to answer.
      }
    });
  });
}
