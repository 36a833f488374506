import type { PanelActions } from '@/components/shared/panel-actions';
import { answerReply, decisionReply, formReply, jobStopReply, withdrawReply } from '@/lib/panel/runtime-replies';
import { errorText } from '@/lib/protocol/error-text';
import type { JsonValue } from '@/lib/protocol/json-value';
import { approvalPermission } from '@/lib/panel/approval-permission';
import type { RequestState } from '@/lib/state/client-state';
import { browserDownloads, requestDownloadsPermission } from '../shared/browser-downloads';
import { callRuntime } from '../shared/call-runtime';
import { requestSiteAccess } from './use-current-page';

type RuntimeActions = Pick<PanelActions, 'decide' | 'answer' | 'withdraw' | 'submitForm' | 'stopJob' | 'dismissFact'>;

interface RuntimeActionInputs {
  sessionId(): string;
  /** The tool of the call an approval is for, as the panel's state has it. */
  toolNameOf(toolCallId: string): string | undefined;
  /** A withdrawn steer's text goes back to the composer. */
  giveBack(text: string): void;
  report(message: string): void;
}

/** The cards' requests to the runtime, each answered with the runtime's word or the error to show. */
export function runtimeActions({ sessionId, toolNameOf, giveBack, report }: RuntimeActionInputs): RuntimeActions {
  const failed = (reason: unknown) => errorText(reason);
  /** Asks the browser for what an Allow needs; a problem that keeps the card waiting, or nothing. */
  const permitted = (request: RequestState): Promise<string | undefined> => {
    const permission = approvalPermission(request, toolNameOf(request.toolCallId ?? ''));
    if (permission?.kind === 'site') return requestSiteAccess(permission.origin).then(() => undefined);
    if (permission?.kind === 'downloads')
      // A request the browser refuses (no gesture it counts) still finds a permission the extension already holds.
      return requestDownloadsPermission()
        .catch(() => false)
        .then((granted) => granted || browserDownloads.permitted())
        .then((granted) =>
          granted ? undefined : 'The downloads permission was not granted, so nothing can be saved: allow it, or Deny.',
        );
    return Promise.resolve(undefined);
  };
  return {
    decide: (request, decision, scope) =>
      // The permission request comes first and synchronously: the Allow click is the gesture the browser needs.
      (decision === 'allow' ? permitted(request) : Promise.resolve(undefined))
        .then((problem) =>
          problem !== undefined
            ? problem
            : callRuntime({
                type: 'approval/decide',
                sessionId: sessionId(),
                turnId: request.turnId,
                toolCallId: request.toolCallId ?? '',
                requestId: request.requestId,
                decision,
                scope,
              }).then(decisionReply),
        )
        .catch(failed),
    answer: (request, answer) =>
      callRuntime({
        type: 'ask/answer',
        sessionId: sessionId(),
        turnId: request.turnId,
        requestId: request.requestId,
        answer,
      }).then(answerReply, failed),
    withdraw: (command) =>
      callRuntime({ type: 'command/withdraw', sessionId: sessionId(), commandId: command.commandId }).then((result) => {
        const problem = withdrawReply(result);
        if (!problem) giveBack(command.text ?? '');
        return problem;
      }, failed),
    submitForm: (request, submission) =>
      callRuntime({
        type: 'artifact/act',
        sessionId: sessionId(),
        turnId: request.turnId,
        requestId: request.requestId,
        ...submission,
        payload: submission.payload as JsonValue,
      }).then(formReply, (reason: unknown) => ({ error: errorText(reason), problems: [] })),
    stopJob: (job) =>
      callRuntime({
        type: 'job/cancel',
        sessionId: sessionId(),
        jobId: job.jobId,
        commandId: crypto.randomUUID(),
      }).then(jobStopReply, failed),
    dismissFact: (notificationId) => {
      const id = sessionId();
      if (!id) return;
      const dismissed = { type: 'notify/dismissed', sessionId: id, notificationId, time: Date.now(), data: {} };
      callRuntime({ type: 'events/append', sessionId: id, batchId: crypto.randomUUID(), events: [dismissed] }).catch(
        (reason: unknown) => report(`Could not dismiss the notice: ${errorText(reason)}`),
      );
    },
  };
}
