import type { JsonObject } from '../protocol/json-value';
import type { ViewProblem } from '../view-artifacts/view-problems';
import type { StoredForm } from './form-definition';
import { validateFormPayload } from './validate-form-payload';

/** A submission from the panel: which form (artifact and version), which of its buttons, and the values. */
export interface FormActionSubmission {
  artifactId: string;
  version: number;
  actionId: string;
  payload: unknown;
}

export type CheckedFormAction =
  { ok: true; actionId: string; values: JsonObject } | { ok: false; problems: ViewProblem[] };

/** The runtime's check of a submission: the same form, its current version, one of its actions, then the values. */
export function checkFormAction(form: StoredForm, submission: FormActionSubmission): CheckedFormAction {
  const problems: ViewProblem[] = [];
  if (submission.artifactId !== form.artifactId)
    problems.push({ path: '/artifactId', message: `is not this question's form (${form.artifactId})` });
  if (submission.version !== form.version)
    problems.push({ path: '/version', message: `is not the form's current version (${form.version})` });
  if (!form.actions.some((action) => action.id === submission.actionId))
    problems.push({
      path: '/actionId',
      message: `must be one of: ${form.actions.map((action) => action.id).join(', ')}`,
    });
  const payload = validateFormPayload(form, submission.payload);
  if (!payload.ok) problems.push(...payload.problems);
  if (problems.length > 0 || !payload.ok) return { ok: false, problems };
  return { ok: true, actionId: submission.actionId, values: payload.values };
}
