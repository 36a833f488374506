import { streamText } from 'ai';
import { endpointAddress, endpointModelName, type EndpointSettings } from '../settings/endpoint-settings';
import { createLanguageModel } from './create-language-model';
import { describeStreamFailure } from './describe-stream-failure';
import { listModels } from './list-models';
import { endpointAdvice } from './loopback-url';
import { retryDecision } from './retry-policy';

export interface ConnectionCheck {
  name: 'models' | 'reply';
  ok: boolean;
  /** What worked, or the exact failure: HTTP status and the provider's message. */
  detail: string;
}

export interface ConnectionReport {
  ok: boolean;
  checks: ConnectionCheck[];
  /** The models the endpoint listed, when it has a list. */
  models?: string[];
}

export interface ConnectionTestOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?(): number;
}

/** Lists the models where the API can, then asks the chosen model for a one-word reply and stops at its first output. */
export async function testConnection(
  settings: EndpointSettings,
  options: ConnectionTestOptions = {},
): Promise<ConnectionReport> {
  const fetchFunction = options.fetch ?? ((input, init) => fetch(input, init));
  const signal = AbortSignal.timeout(options.timeoutMs ?? 20_000);
  const checks: ConnectionCheck[] = [];
  const list = await listModels(settings, fetchFunction, signal);
  if (list.ok)
    checks.push({ name: 'models', ok: true, detail: describeList(list.models, endpointModelName(settings)) });
  else if (!list.unsupported)
    checks.push({ name: 'models', ok: false, detail: `Listing models failed: ${list.message}` });
  checks.push(await replyCheck(settings, fetchFunction, signal, options.now ?? Date.now));
  return { ok: checks.every((check) => check.ok), checks, ...(list.ok ? { models: list.models } : {}) };
}

function describeList(models: string[], wanted: string): string {
  const count = `Listed ${models.length} model${models.length === 1 ? '' : 's'}`;
  if (models.includes(wanted)) return `${count}; "${wanted}" is among them.`;
  return `${count}; "${wanted}" is not among them${models.length ? ` (for example ${models.slice(0, 3).join(', ')})` : ''}.`;
}

async function replyCheck(
  settings: EndpointSettings,
  fetchFunction: typeof fetch,
  timeout: AbortSignal,
  now: () => number,
): Promise<ConnectionCheck> {
  const started = now();
  const controller = new AbortController();
  const signal = AbortSignal.any([timeout, controller.signal]);
  let failure: unknown;
  let answered = '';
  try {
    const result = streamText({
      model: createLanguageModel(settings, { fetch: fetchFunction }),
      prompt: 'Reply with the single word OK.',
      abortSignal: signal,
      maxRetries: 0,
      onError: () => undefined,
    });
    for await (const part of result.fullStream) {
      if (part.type === 'error') failure ??= part.error;
      if (
        part.type === 'text-delta' ||
        part.type === 'reasoning-delta' ||
        part.type === 'tool-input-start' ||
        part.type === 'finish-step'
      ) {
        answered = part.type === 'text-delta' ? `answered "${part.text.trim().slice(0, 40)}…"` : 'answered';
        if (part.type !== 'finish-step' || failure === undefined) break;
      }
    }
  } catch (error) {
    failure ??= error;
  } finally {
    controller.abort();
  }
  if (timeout.aborted && !answered)
    return { name: 'reply', ok: false, detail: 'The model did not answer within 20 s.' };
  if (failure !== undefined)
    return { name: 'reply', ok: false, detail: `The model request failed: ${failureDetail(failure, settings, now())}` };
  return {
    name: 'reply',
    ok: true,
    detail: `"${endpointModelName(settings)}" ${answered || 'answered'} in ${now() - started} ms.`,
  };
}

function failureDetail(error: unknown, settings: EndpointSettings, time: number): string {
  const endpointUrl = endpointAddress(settings);
  const failure = describeStreamFailure(error, { midStream: false, ...(endpointUrl ? { endpointUrl } : {}) });
  if (!failure.http) return failure.message;
  const decision = retryDecision(failure.http, { retriesSoFar: 0, now: time });
  const message = decision.retry ? decision.reason : decision.message;
  return message + (endpointUrl ? endpointAdvice(failure.http.status, endpointUrl) : '');
}
