import type { LanguageModel, ModelMessage } from 'ai';
import type { EndpointFileLimits, FileEndpointKind } from '../files/file-limits';
import { resolveBlobs, toolOutputImages, toolResultContent, type ReencodeImage } from '../files/model-file-content';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import { isRemoteEndpoint, type EndpointSettings } from '../settings/endpoint-settings';
import type { RuntimeClient } from './runtime-client';
import type { TurnOutcome } from './turn-outcome';
import type { EventOutbox } from './event-outbox';
import { loadTurnEngine } from './turn-engine';
import type { HistoryBoundary } from '../context/history-cut';
import type { ClientState } from '../state/client-state';

/** What any turn of this document runs with: the runtime, the profile, the files, and a model when a test gives one. */
export interface DriveRequest {
  client: RuntimeClient;
  settings: EndpointSettings;
  /** Where the bytes of attached files and tool-result images are read, and how images are re-encoded. */
  files?: { read(blobId: string): Promise<Uint8Array | undefined>; reencodeImage?: ReencodeImage };
  /** Made from the settings unless a test passes one. */
  model?: LanguageModel;
}

/** What drives one turn's agent loop in this document, however the turn began (a message, or a resume). */
export interface DriveSetup {
  request: DriveRequest;
  sessionId: string;
  turnId: string;
  outbox: EventOutbox;
  emit(drafts: AgentEventDraft[]): void;
  /** The conversation to send first, and where its history may be cut; the loop starts once it is ready. */
  messages: Promise<{ messages: ModelMessage[]; boundaries: HistoryBoundary[] }>;
  /** The conversation the history was built from: its calibration for the model. */
  historyState: ClientState;
  files: { kind: FileEndpointKind; limits: EndpointFileLimits };
  newId(): string;
  now(): number;
}

export interface DrivenTurn {
  done: Promise<TurnOutcome>;
  stop(commandId?: string): void;
  steer(text: string, commandId?: string): Promise<void>;
  pause(): Promise<void>;
}

/** Rejects as soon as the signal aborts, so a stopped turn never waits on a request still in flight. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('Stopped by the user.'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error('Stopped by the user.'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Runs the agent loop for a turn this document owns, until it ends or pauses; then lets the turn go. */
export function driveTurn(setup: DriveSetup): DrivenTurn {
  const { request, sessionId, turnId, outbox, newId } = setup;
  const { client, settings } = request;
  const { kind, limits } = setup.files;
  const controller = new AbortController();
  let cancelCommandId: string | undefined;
  const toolResult = async (call: { toolCallId: string; toolName: string }, output: JsonValue) => {
    const images = toolOutputImages(output);
    if (!request.files || images.length === 0) return toolResultContent(call, output, undefined);
    return toolResultContent(call, output, {
      kind,
      limits,
      resolved: await resolveBlobs(images, request.files, limits),
    });
  };
  const done = Promise.all([setup.messages, loadTurnEngine()])
    .then(([{ messages, boundaries }, [{ runAgentTurn }, { createLanguageModel }, context]]) => {
      const model = request.model ?? createLanguageModel(settings, { chatId: sessionId });
      return runAgentTurn({
        model,
        context: context.options({ settings, state: setup.historyState, model, boundaries }),
        sessionId,
        turnId,
        messages,
        toolResult,
        emit: setup.emit,
        flush: () => outbox.flush(),
        executeTool: async (call) => {
          await outbox.flush();
          // A call waiting for the user's approval or answer comes back as `waiting`: ask again until it is settled.
          for (;;) {
            const result = await untilAborted(client.executeTool({ sessionId, turnId, ...call }), controller.signal);
            if (result.status !== 'waiting') return result.output;
          }
        },
        takeSteers: () => client.takeSteers(sessionId, turnId),
        ...(client.takePause ? { takePause: () => client.takePause!(sessionId, turnId) } : {}),
        // MCP glue: the servers' tools, declared with their own JSON Schemas.
        ...(client.mcpTools
          ? {
              extraTools: async () => {
                const [{ mcpToolSet }, { tools }] = await Promise.all([
                  import('../mcp/mcp-tool-set'),
                  client.mcpTools!(),
                ]);
                return mcpToolSet(tools);
              },
            }
          : {}),
        cancelCommandId: () => cancelCommandId,
        ...(client.budgetReached ? { budgetReached: () => client.budgetReached!(sessionId, turnId) } : {}),
        ...(isRemoteEndpoint(settings) ? { modelId: settings.model } : {}),
        signal: controller.signal,
        ...(isRemoteEndpoint(settings) ? { endpointUrl: settings.baseUrl } : {}),
        ...(settings.streamIdleTimeoutSeconds === undefined
          ? {}
          : { streamIdleTimeoutMs: settings.streamIdleTimeoutSeconds * 1000 }),
        secrets: isRemoteEndpoint(settings) && settings.apiKey ? [settings.apiKey] : [],
        newId,
        now: setup.now,
      });
    })
    .finally(() => client.releaseTurn(sessionId, turnId));
  const stop = (commandId?: string) => {
    if (controller.signal.aborted) return;
    cancelCommandId = commandId ?? newId();
    controller.abort();
    if (!commandId)
      void client
        .submitCommand({ kind: 'cancel', sessionId, turnId, commandId: cancelCommandId })
        .catch(() => undefined);
  };
  const steer = async (text: string, commandId = newId()) => {
    await outbox.flush();
    await client.submitCommand({ kind: 'steer', sessionId, turnId, commandId, text });
  };
  const pause = async () => {
    await outbox.flush();
    await client.submitCommand({ kind: 'pause', sessionId, turnId, commandId: newId() });
  };
  return { done, stop, steer, pause };
}
