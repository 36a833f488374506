export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

/** The error shape api.anthropic.com answers with, as a body and as an in-stream `error` event. */
export function anthropicErrorBody(message: string, type: string): AnthropicErrorBody {
  return { type: 'error', error: { type, message } };
}

export function anthropicErrorTypeForStatus(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'billing_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}
