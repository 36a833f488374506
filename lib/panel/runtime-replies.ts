import type { RuntimeResult } from '../protocol/runtime-result-schemas';
import type { ViewProblem } from '../view-artifacts/view-problems';

/** What the panel shows for an approval the runtime did not record; nothing when it did. */
export function decisionReply(result: RuntimeResult<'approval/decide'>): string | undefined {
  return result.accepted ? undefined : `Not recorded: this request is already ${result.status}.`;
}

/** What the panel shows for an answer the runtime did not record; nothing when it did. */
export function answerReply(result: RuntimeResult<'ask/answer'>): string | undefined {
  return result.accepted ? undefined : (result.error ?? `Not recorded: this question is already ${result.status}.`);
}

/** What the panel shows for a steer that could not be taken back; nothing when it was (its text returns). */
export function withdrawReply(result: RuntimeResult<'command/withdraw'>): string | undefined {
  if (result.state === 'cancelled') return undefined;
  return result.state === 'applied'
    ? 'Too late: it was already added to the turn.'
    : `Not withdrawn: it is ${result.state}.`;
}

/** What the panel shows for a Stop the runtime refused; nothing when the job is stopping. */
export function jobStopReply(result: RuntimeResult<'job/cancel'>): string | undefined {
  return result.state === 'rejected' ? `Not stopped: the job is ${result.jobState}.` : undefined;
}

/** A form submission the runtime did not record: its message and the problems by path; nothing when it did. */
export function formReply(
  result: RuntimeResult<'artifact/act'>,
): { error: string; problems: ViewProblem[] } | undefined {
  if (result.accepted) return undefined;
  return {
    error: result.error ?? `Not recorded: this question is already ${result.status}.`,
    problems: result.problems ?? [],
  };
}
