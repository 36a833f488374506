export interface OpenAIErrorBody {
  error: {
    message: string;
    type: string;
    param: string | null;
    code: string | null;
  };
}

/** The error shape api.openai.com answers with (and the one the AI SDK's OpenAI providers parse). */
export function openAIErrorBody(
  message: string,
  type = 'invalid_request_error',
  code: string | null = null,
): OpenAIErrorBody {
  return { error: { message, type, param: null, code } };
}

export function openAIErrorTypeForStatus(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export const openAIQuotaExhaustedMessage =
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.';

/** What OpenAI answers (with HTTP 429) when the account has no credit left: retrying does not help. */
export function openAIQuotaExhaustedBody(message = openAIQuotaExhaustedMessage): OpenAIErrorBody {
  return openAIErrorBody(message, 'insufficient_quota', 'insufficient_quota');
}
