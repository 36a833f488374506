import { z } from 'zod';

const googleDetailSchema = z.looseObject({
  '@type': z.string(),
  retryDelay: z.string().optional(),
  violations: z.array(z.looseObject({ quotaId: z.string().optional(), quotaMetric: z.string().optional() })).optional(),
});

/** The error bodies of OpenAI (and compatible servers), Anthropic and Google, as far as retrying needs them. */
const errorBodySchema = z.looseObject({
  error: z.union([
    z.looseObject({
      message: z.string().optional(),
      type: z.string().nullish(),
      code: z.union([z.string(), z.number()]).nullish(),
      status: z.string().optional(),
      details: z.array(z.unknown()).optional(),
    }),
    z.string(),
  ]),
});

export interface ProviderErrorBody {
  message: string | undefined;
  /** OpenAI `code`/`type`, Anthropic `type`, Google `status`: whatever names the error. */
  codes: string[];
  /** Google's `google.rpc.*` details, each with its `@type`. */
  googleDetails: z.infer<typeof googleDetailSchema>[];
}

/** Reads a provider error body; Google sometimes wraps it in a one-element array. */
export function parseProviderErrorBody(text: string): ProviderErrorBody | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = errorBodySchema.safeParse(Array.isArray(value) ? value[0] : value);
  if (!parsed.success) return undefined;
  const error = parsed.data.error;
  if (typeof error === 'string') return { message: error, codes: [], googleDetails: [] };
  const codes = [error.type, error.code, error.status]
    .filter((code) => code !== undefined && code !== null)
    .map(String);
  const googleDetails = (error.details ?? [])
    .map((detail) => googleDetailSchema.safeParse(detail))
    .filter((detail) => detail.success)
    .map((detail) => detail.data);
  return { message: error.message, codes, googleDetails };
}

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const QUOTA_FAILURE = 'type.googleapis.com/google.rpc.QuotaFailure';

/** Google's RetryInfo `retryDelay`, a protobuf Duration such as "2s" or "1.500s", in milliseconds. */
export function googleRetryDelayMs(body: ProviderErrorBody): number | undefined {
  const delay = body.googleDetails.find((detail) => detail['@type'] === RETRY_INFO)?.retryDelay;
  const match = delay?.match(/^(\d+(?:\.\d+)?)s$/);
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/** Google's sign that a quota is used up for the day: a per-day QuotaFailure and no RetryInfo. */
export function googleDailyQuotaExhausted(body: ProviderErrorBody): boolean {
  if (googleRetryDelayMs(body) !== undefined) return false;
  const violations = body.googleDetails
    .filter((detail) => detail['@type'] === QUOTA_FAILURE)
    .flatMap((detail) => detail.violations ?? []);
  return violations.some((violation) => /per ?day/i.test(`${violation.quotaId ?? ''} ${violation.quotaMetric ?? ''}`));
}
