import { useState } from 'react';

/** One request to the runtime at a time (a double click sends one), with the problem it reports, if any. */
export function useRuntimeAction(): {
  sending: boolean;
  error: string | undefined;
  run(action: () => Promise<string | undefined>): void;
} {
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string>();
  const run = (action: () => Promise<string | undefined>) => {
    if (sending) return;
    setSending(true);
    setError(undefined);
    void action().then((problem) => {
      setError(problem);
      setSending(false);
    });
  };
  return { sending, error, run };
}
