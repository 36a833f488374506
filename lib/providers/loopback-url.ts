/** What an Ollama user must set before the extension may call it. */
export const OLLAMA_ORIGINS_ADVICE =
  'If this is Ollama, allow the extension to call it: start it with OLLAMA_ORIGINS=chrome-extension://*,moz-extension://* (for example `OLLAMA_ORIGINS=chrome-extension://*,moz-extension://* ollama serve`).';

/** True for localhost, 127.0.0.0/8 and [::1]: servers on this machine, which need no host permission prompt. */
export function isLoopbackUrl(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return false;
  }
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/**
 * Advice to add to a failure: a local server that refused the extension (403, or a request the browser
 * blocked before any status) is most likely Ollama without the extension among its allowed origins.
 */
export function endpointAdvice(status: number | undefined, url: string): string {
  if (!isLoopbackUrl(url)) return '';
  if (status === undefined) return ` Check that the server is running. ${OLLAMA_ORIGINS_ADVICE}`;
  return status === 403 ? ` The local server refused the extension. ${OLLAMA_ORIGINS_ADVICE}` : '';
}
