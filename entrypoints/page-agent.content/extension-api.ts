/*
 * The raw extension global, without the polyfill: the content script needs only `runtime.onMessage` (with
 * `sendResponse`, which both browsers keep) and `runtime.getFrameId`, and stays small without it.
 */
export interface MessageSender {
  id?: string;
}

export interface ContentRuntime {
  id?: string;
  onMessage: {
    addListener(
      listener: (
        message: unknown,
        sender: MessageSender,
        sendResponse: (reply: unknown) => void,
      ) => boolean | undefined,
    ): void;
  };
  getFrameId?: (target: Element) => number;
  sendMessage?(message: unknown): Promise<unknown> | void;
}

export function contentRuntime(): ContentRuntime | undefined {
  const holder = globalThis as { browser?: { runtime?: ContentRuntime }; chrome?: { runtime?: ContentRuntime } };
  return holder.browser?.runtime ?? holder.chrome?.runtime;
}
