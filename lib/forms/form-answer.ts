import type { ViewProblem } from '../view-artifacts/view-problems';
import { checkFormAction, type FormActionSubmission } from './check-form-action';
import { storedFormSchema } from './form-definition';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';

export interface FormActionRequest extends FormActionSubmission {
  sessionId: string;
  turnId: string;
  requestId: string;
}

export type FormActionResult = { accepted: boolean; status: string; error?: string; problems?: ViewProblem[] };

interface FormAnswerAccess {
  now(): number;
  commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
}

/**
 * A pending question's form and a submission for it: refused with every problem's path (nothing written, the
 * form stays open), or recorded as `artifact/action` and the `ask/answered` it becomes, in one batch.
 * Called under the session lock, after the question was found answerable.
 */
export async function answerFormAction(
  action: FormActionRequest,
  answerSchema: JsonValue,
  access: FormAnswerAccess,
): Promise<FormActionResult> {
  const form = storedFormSchema.safeParse(answerSchema);
  if (!form.success) return { accepted: false, status: 'pending', error: 'This question is not a form.' };
  const checked = checkFormAction(form.data, action);
  if (!checked.ok)
    return {
      accepted: false,
      status: 'pending',
      error: 'The form was not accepted; nothing was sent.',
      problems: checked.problems,
    };
  const { sessionId, turnId, requestId } = action;
  const time = access.now();
  await access.commitDrafts(sessionId, [
    {
      type: 'artifact/action',
      sessionId,
      turnId,
      requestId,
      artifactId: form.data.artifactId,
      time,
      data: { version: form.data.version, actionId: checked.actionId, payload: checked.values },
    },
    {
      type: 'ask/answered',
      sessionId,
      turnId,
      requestId,
      time,
      data: { answer: { actionId: checked.actionId, values: checked.values } },
    },
  ]);
  return { accepted: true, status: 'answered' };
}
