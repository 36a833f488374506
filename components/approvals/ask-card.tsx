import { useId, useState, type FormEvent } from 'react';
import { answerSchemaSchema } from '@/lib/tools/ask-user';
import { formAnswerSummary } from '@/lib/forms/form-answer-summary';
import { FormAnswer } from '../artifacts/form-answer';
import { remainingText, settledText } from '@/lib/panel/request-view';
import type { RequestState } from '@/lib/state/client-state';
import { usePanelActions } from '../shared/panel-actions';
import { useNow } from '../shared/use-now';
import { useRuntimeAction } from '../shared/use-runtime-action';

/** A question from the model; the turn waits for the answer, which the runtime checks against the question's schema. */
export function AskCard({ request }: { request: RequestState }) {
  const actions = usePanelActions();
  const [value, setValue] = useState('');
  const { sending, error, run } = useRuntimeAction();
  const fieldId = useId();
  const pending = request.status === 'pending';
  const remaining = remainingText(request.expiresAt, useNow(pending));
  const schema = answerSchemaSchema.safeParse(request.answerSchema);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!schema.success || schema.data.type === 'form') return;
    const answer = schema.data.type === 'number' ? Number(value) : value;
    run(() => actions.answer(request, answer));
  };
  return (
    <section
      className="request-card ask-card"
      data-request-id={request.requestId}
      data-status={request.status}
      aria-label="Question from the model"
    >
      <p className="request-title">Question</p>
      <p className="request-summary">{request.summary}</p>
      {pending && schema.success && schema.data.type === 'form' ? (
        <FormAnswer request={request} form={schema.data} />
      ) : pending && schema.success ? (
        <form className="ask-form" onSubmit={submit}>
          {schema.data.type === 'choice' ? (
            <fieldset className="ask-choices">
              <legend className="visually-hidden">Choices</legend>
              {schema.data.choices.map((choice) => (
                <label key={choice} className="ask-choice">
                  <input
                    type="radio"
                    name={fieldId}
                    value={choice}
                    checked={value === choice}
                    onChange={() => setValue(choice)}
                  />{' '}
                  {choice}
                </label>
              ))}
            </fieldset>
          ) : (
            <input
              id={fieldId}
              className="ask-input"
              aria-label="Your answer"
              type={schema.data.type === 'number' ? 'number' : 'text'}
              step="any"
              value={value}
              onInput={(event) => setValue(event.currentTarget.value)}
            />
          )}
          <div className="request-actions">
            <button type="submit" className="button-primary" disabled={sending || value === ''}>
              Answer
            </button>
            {remaining && <span className="request-meta">Expires in {remaining}</span>}
          </div>
        </form>
      ) : (
        <p className="request-meta" data-settled={request.status}>
          {(request.status === 'answered' && schema.success && schema.data.type === 'form'
            ? formAnswerSummary(schema.data, request.answer)
            : undefined) ?? settledText(request)}
        </p>
      )}
      {error && (
        <p className="request-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
