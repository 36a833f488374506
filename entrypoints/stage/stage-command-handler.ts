import { errorText } from '@/lib/protocol/error-text';
import type { StageCommandMessage, StageReportMessage } from '@/lib/protocol/runtime-message';
import type { AppAsks } from '@/lib/stage/app-asks';
import type { StageCallRecord } from '@/lib/stage/stage-call-record';
import { stageOpenRefusal, stageSendRefusal } from '@/lib/stage/stage-command-refusals';
import type { StageHost } from './stage-host';

export interface StageCommandHandlerOptions {
  host: StageHost;
  record: StageCallRecord;
  asks: AppAsks;
  report(message: StageReportMessage): void;
  /** Stops taking commands: another stage tab took over. */
  closePort(): void;
  extensionOrigin: string;
}

/** What the stage does for each command of the runtime, answered on the same port. */
export function stageCommandHandler(options: StageCommandHandlerOptions) {
  const { host, record, asks, report } = options;
  return async (command: StageCommandMessage): Promise<void> => {
    if (command.type !== 'stage/retire' && command.type !== 'stage/app-tool-result' && record.receive(command.callKey))
      // Visible to a test that must stop the worker only after a command has reached this page, not merely been logged.
      document.documentElement.dataset.receivedCalls = String(record.receivedCount);
    if (command.type === 'stage/retire') {
      options.closePort();
      host.retire();
      return;
    }
    if (command.type === 'stage/open') {
      const refusal = stageOpenRefusal(command.url, options.extensionOrigin);
      if (refusal) {
        report({ type: 'stage/error', jobId: command.jobId, error: refusal });
        return;
      }
      await host.open(command);
      record.remember(command.callKey, 'open', command.targetId, {});
      report({ type: 'stage/state', jobId: command.jobId, state: {} });
      return;
    }
    if (command.type === 'stage/app-tool-result') {
      asks.answer(command.requestId, command.answer);
      return;
    }
    const refusal = stageSendRefusal(host.shown, command.targetId);
    if (refusal) {
      report({ type: 'stage/error', jobId: command.jobId, error: refusal });
      return;
    }
    const { type } = command.message;
    try {
      const state = await host.send(type === 'apply' ? { type, payload: command.message.payload } : { type });
      record.remember(command.callKey, type, command.targetId, state);
      report({ type: 'stage/state', jobId: command.jobId, state });
    } catch (error) {
      report({ type: 'stage/error', jobId: command.jobId, error: errorText(error) });
    }
  };
}
