export interface GoogleErrorBody {
  error: {
    code: number;
    message: string;
    status: string;
    details?: unknown[];
  };
}

const statusNames: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function googleStatusName(status: number): string {
  return statusNames[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

export const googleQuotaMessage =
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.';

export interface GoogleErrorOptions {
  readonly model?: string;
  /** Adds a RetryInfo detail, as Google does for per-minute limits. */
  readonly retryDelaySeconds?: number;
  /** A per-day QuotaFailure without RetryInfo: waiting a little does not help. */
  readonly quotaExhausted?: boolean;
}

/** The error shape of generativelanguage.googleapis.com, details included for 429s. */
export function googleErrorBody(status: number, message: string, options: GoogleErrorOptions = {}): GoogleErrorBody {
  const details: unknown[] = [];
  const model = options.model ?? 'scripted-model';
  if (options.quotaExhausted === true || options.retryDelaySeconds !== undefined) {
    const perDay = options.quotaExhausted === true;
    details.push(
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [
          {
            quotaMetric: `generativelanguage.googleapis.com/generate_content_free_tier_requests`,
            quotaId: perDay
              ? 'GenerateRequestsPerDayPerProjectPerModel-FreeTier'
              : 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
            quotaDimensions: { location: 'global', model },
            quotaValue: perDay ? '250' : '10',
          },
        ],
      },
      {
        '@type': 'type.googleapis.com/google.rpc.Help',
        links: [
          {
            description: 'Learn more about Gemini API quotas',
            url: 'https://ai.google.dev/gemini-api/docs/rate-limits',
          },
        ],
      },
    );
  }
  if (options.retryDelaySeconds !== undefined && options.quotaExhausted !== true) {
    details.push({
      '@type': 'type.googleapis.com/google.rpc.RetryInfo',
      retryDelay: googleDuration(options.retryDelaySeconds),
    });
  }
  return {
    error: { code: status, message, status: googleStatusName(status), ...(details.length > 0 ? { details } : {}) },
  };
}

/** Google's JSON form of a protobuf Duration: seconds with up to nine decimals and an `s`, e.g. `2s`, `1.500s`. */
export function googleDuration(seconds: number): string {
  const totalNanos = Math.round(seconds * 1e9);
  const whole = Math.floor(totalNanos / 1e9);
  const nanos = totalNanos - whole * 1e9;
  if (nanos === 0) return `${whole}s`;
  const digits = String(nanos).padStart(9, '0');
  const fraction = digits.endsWith('000000')
    ? digits.slice(0, 3)
    : digits.endsWith('000')
      ? digits.slice(0, 6)
      : digits;
  return `${whole}.${fraction}s`;
}
