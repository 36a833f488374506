export interface ErrorAdvice {
  /** One line saying what went wrong, in the user's terms. */
  title: string;
  /** What to do about it. */
  action: string;
  /** Whether the Settings page is the place to fix it. */
  settings: boolean;
}

const RULES: { test: RegExp; advice: ErrorAdvice }[] = [
  {
    test: /sent nothing for/i,
    advice: {
      title: 'The model stopped sending.',
      action: 'The stalled attempt was ended; retry, the partial answer stays visible above.',
      settings: false,
    },
  },
  {
    test: /\b401\b|unauthori[sz]ed|invalid[_ ]api[_ ]key|incorrect api key|authentication/i,
    advice: {
      title: 'The endpoint rejected the API key.',
      action: 'Check the API key in Settings, then retry.',
      settings: true,
    },
  },
  {
    test: /\b403\b|forbidden|permission/i,
    advice: {
      title: 'The endpoint refused the request.',
      action:
        'Check that the key may use this model, or that the server allows requests from the extension (Ollama: OLLAMA_ORIGINS).',
      settings: true,
    },
  },
  {
    test: /insufficient[_ ]quota|quota|billing|RESOURCE_EXHAUSTED/i,
    advice: {
      title: 'The account has no quota left.',
      action: 'Check the plan or billing of this endpoint, or switch endpoints in Settings.',
      settings: true,
    },
  },
  {
    test: /\b429\b|rate.?limit|too many requests/i,
    advice: { title: 'The endpoint is rate limiting requests.', action: 'Wait a moment, then retry.', settings: false },
  },
  {
    test: /\b404\b|model.*(not found|does not exist)|no such model|unknown model/i,
    advice: {
      title: 'The model or endpoint path was not found.',
      action: 'Check the base URL (it usually ends in /v1) and the model name in Settings.',
      settings: true,
    },
  },
  {
    test: /failed to fetch|networkerror|network error|ECONNREFUSED|ERR_CONNECTION|load failed|fetch failed/i,
    advice: {
      title: 'The endpoint could not be reached.',
      action:
        'Check that the server is running and the base URL is right; local servers such as Ollama must allow the extension’s origin.',
      settings: true,
    },
  },
  {
    test: /context.{0,20}(length|window)|too long|maximum.{0,20}tokens/i,
    advice: {
      title: 'The request was longer than this model’s context window.',
      action:
        'Set the model’s real context window on its profile in Settings (earlier turns are then summarised before they pass it), or pick a model with a larger one.',
      settings: true,
    },
  },
  {
    test: /\b5\d\d\b|server error|overloaded|unavailable|bad gateway/i,
    advice: {
      title: 'The endpoint had a server error.',
      action: 'This is usually temporary: retry in a moment.',
      settings: false,
    },
  },
  {
    test: /ended without finishing|terminated|aborted|network|stream/i,
    advice: {
      title: 'The connection to the model broke off.',
      action: 'Retry; the partial answer stays visible above.',
      settings: false,
    },
  },
];

/** Turns a raw provider or transport error into a sentence a user can act on; the raw message stays available as detail. */
export function errorAdvice(message: string): ErrorAdvice {
  return (
    RULES.find((rule) => rule.test.test(message))?.advice ?? {
      title: 'The model request failed.',
      action: 'Retry; if it keeps failing, check the endpoint in Settings.',
      settings: true,
    }
  );
}
