import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { compactConversation } from '@/lib/agent/compact-conversation';
import { resumeTurn } from '@/lib/agent/resume-turn';
import { startTurn, type TurnHandle } from '@/lib/agent/turn-driver';
import { followTurn, steerTurn } from '@/lib/agent/turn-feedback';
import { composedRequest, type TurnRequestDraft } from '@/lib/panel/turn-request';
import { hasTurnEnded, settleAdditions, type Addition } from '@/lib/panel/unapplied-additions';
import { errorText } from '@/lib/protocol/error-text';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';
import type { ClientState } from '@/lib/state/client-state';
import { isHistoryLoaded } from '@/lib/state/history-loaded';
import { pausedTurnOf } from '@/lib/panel/paused-turn';
import { usesPageTools } from '@/lib/panel/uses-page-tools';
import { callRuntime } from '../shared/call-runtime';
import { isBudgetRefusal } from '@/lib/usage/budget-state';
import { reencodeImage } from '../shared/reencode-image';
import { panelBlobStore } from './panel-blob-store';
import { panelRuntimeClient } from './panel-runtime-client';
import type { RuntimeConnection } from './use-runtime-connection';

export interface TurnInputs {
  connection: RuntimeConnection;
  endpoint: EndpointSettings | undefined;
  state: ClientState | undefined;
  /** Shows a failure in the panel, or clears it (undefined). */
  report(message: string | undefined): void;
  /** The composer's files left with the message. */
  sent(): void;
  ended(): void;
}

export interface PanelTurn {
  running: boolean;
  /** Why the runtime refused the last message at a budget. */
  budgetRefusal: string | undefined;
  /** A message that could not be recorded, handed back to the composer; `nonce` changes each time. */
  unsent: { text: string; nonce: number } | undefined;
  send(request: TurnRequestDraft): void;
  steer(text: string): void;
  /** Stops the running turn, or a paused one. */
  stop(): void;
  /** Asks the running turn to pause at its next safe point. */
  pause(): void;
  /** Goes on with the paused turn of this conversation. */
  resume(): void;
  /** Summarises the turns before the last one now; the panel is busy meanwhile. */
  compact(): void;
  sendOverBudget(): void;
  dismissBudgetRefusal(): void;
  /** Puts text back into the composer, ahead of anything typed since. */
  giveBack(text: string): void;
}

/** The turn this panel drives: it sends, streams, steers and stops; one at a time. */
export function useTurn({ connection, endpoint, state, report, sent, ended }: TurnInputs): PanelTurn {
  const [turn, setTurn] = useState<TurnHandle>();
  const [compacting, setCompacting] = useState(false);
  const [unsent, setUnsent] = useState<{ text: string; nonce: number }>();
  const [refused, setRefused] = useState<{ message: string; request: TurnRequestDraft }>();
  // What was added to this panel's turns, until the state shows whether the turn read it.
  const [additions, setAdditions] = useState<Addition[]>([]);
  const turnRef = useRef<TurnHandle>(undefined);
  const loadingHistory = useRef(false);
  useLayoutEffect(() => {
    turnRef.current = turn;
  });
  const { onTurnCancel } = connection;
  useEffect(
    () =>
      onTurnCancel((turnId, commandId) => {
        if (turnRef.current?.turnId === turnId) turnRef.current.stop(commandId);
      }),
    [onTurnCancel],
  );
  const giveBack = (text: string) => setUnsent({ text, nonce: Date.now() });

  const begin = (settings: EndpointSettings, history: ClientState, request: TurnRequestDraft) => {
    report(undefined);
    setRefused(undefined);
    const { text, retryOf, parentTurnId, answerOf, overBudget, attachments, retry, retryStep } = request;
    const handle = startTurn({
      client: panelRuntimeClient(connection.port()!),
      settings,
      state: history,
      text,
      retryOf,
      parentTurnId,
      answerOf,
      overBudget,
      attachments,
      retry,
      retryStep,
      files: { read: (blobId) => panelBlobStore.read(blobId), reencodeImage },
    });
    // A retry's note is not the user's text (and a step retry has none): the composer is left as it is.
    const retrying = retry !== undefined || retryStep !== undefined;
    if (!retrying) sent();
    // A turn the runtime refused at a budget keeps its text in the refusal notice, which can send it once over.
    handle.recorded.catch((reason: unknown) =>
      isBudgetRefusal(errorText(reason))
        ? setRefused({ message: errorText(reason), request })
        : retrying
          ? report(errorText(reason))
          : giveBack(text),
    );
    follow(handle, text);
  };

  const follow = (handle: TurnHandle, text: string) => {
    setTurn(handle);
    followTurn(handle, text, {
      unsent: () => undefined,
      failed: (message) => {
        if (!isBudgetRefusal(message)) report(message);
      },
      ended: () => {
        setTurn(undefined);
        ended();
      },
    });
  };

  /**
   * Runs `then` with the whole conversation: turns not loaded yet (the reader never scrolled up) load first. When it
   * cannot run now (another send is still loading those turns), `failed` says so, never nothing.
   */
  const withHistory = (then: (settings: EndpointSettings, history: ClientState) => void, failed: () => void) => {
    if (!endpoint || !state || turn || compacting || !isHistoryLoaded(state) || loadingHistory.current) return failed();
    if (state.olderTurns <= 0) return then(endpoint, state);
    loadingHistory.current = true;
    connection.loadAll().then(
      (loaded) => {
        loadingHistory.current = false;
        then(endpoint, loaded);
      },
      (reason: unknown) => {
        loadingHistory.current = false;
        report(`The earlier turns could not be loaded, so nothing was sent: ${errorText(reason)}`);
        failed();
      },
    );
  };

  const paused = pausedTurnOf(state);
  // While a turn is paused, what the user sends is added to it, for the model to read when it resumes.
  const addToPaused = (turnId: string, text: string) =>
    callRuntime({
      type: 'command/submit',
      kind: 'steer',
      sessionId: state?.sessionId ?? '',
      turnId,
      commandId: crypto.randomUUID(),
      text,
    }).catch((reason: unknown) => {
      report(`Could not add to the paused turn: ${errorText(reason)}`);
      giveBack(text);
    });

  const send = (request: TurnRequestDraft) => {
    if (paused && !turn) {
      // A steer is text: files wait in the composer until the turn is resumed or stopped.
      if (request.attachments?.length || !request.text.trim()) {
        report('Files cannot be added to a paused turn: resume or stop it first.');
        return giveBack(request.text);
      }
      return void addToPaused(paused, request.text);
    }
    withHistory(
      (settings, history) => begin(settings, history, request),
      () => giveBack(request.text),
    );
  };

  const resume = () => {
    if (!paused) return;
    withHistory(
      (settings, history) => {
        report(undefined);
        const handle = resumeTurn({
          client: panelRuntimeClient(connection.port()!),
          settings,
          state: history,
          turnId: paused,
          observe: usesPageTools(history),
          files: { read: (blobId) => panelBlobStore.read(blobId), reencodeImage },
        });
        follow(handle, '');
      },
      () => undefined,
    );
  };

  const compact = () => {
    if (paused) return report('Resume or stop the paused turn before compacting.');
    withHistory(
      (settings, history) => {
        report(undefined);
        setCompacting(true);
        compactConversation({ client: panelRuntimeClient(connection.port()!), settings, state: history })
          .then(
            (outcome) => outcome.kind === 'nothing' && report(outcome.reason),
            (reason: unknown) => report(`The conversation could not be compacted: ${errorText(reason)}`),
          )
          .finally(() => setCompacting(false));
      },
      () => undefined,
    );
  };

  /** Adds to the turn this panel drives; text that arrives as the turn ends goes as the next message (see below). */
  const steer = (text: string) => {
    if (!state) return giveBack(text);
    // While the conversation is being compacted there is no turn to add to: the text is the message after it.
    if (!turn) return setAdditions((current) => [...current, { sessionId: state.sessionId, text }]);
    const addition = { sessionId: state.sessionId, turnId: turn.turnId, text };
    // The end is shown before this panel lets the turn go: a steer now would only be recorded as not applied.
    if (hasTurnEnded(state, turn.turnId)) return setAdditions((current) => [...current, addition]);
    const commandId = crypto.randomUUID();
    setAdditions((current) => [...current, { ...addition, commandId }]);
    steerTurn(
      turn,
      text,
      {
        unsent: (unsentText) => {
          setAdditions((current) => current.filter((candidate) => candidate.commandId !== commandId));
          giveBack(unsentText);
        },
        failed: report,
      },
      commandId,
    );
  };

  // Once the turn is let go: additions it never read go as the next message when it completed, else back into the
  // composer; a user's text is never left only in a "not applied" note.
  const settle = useEffectEvent(() => {
    if (!state || !isHistoryLoaded(state)) return;
    const settled = settleAdditions(state, additions);
    if (settled.waiting.length === additions.length) return;
    setAdditions(settled.waiting);
    if (settled.giveBack.length) giveBack(settled.giveBack.join('\n\n'));
    if (settled.nextMessage.length) send(composedRequest(settled.nextMessage.join('\n\n'), []));
  });
  useEffect(() => {
    // Sending is what the turn being let go (or the state catching up with it) sets off; it runs once per batch.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (!turn && !compacting && additions.length > 0) settle();
  }, [turn, compacting, additions, state]);

  const stopPaused = (turnId: string) =>
    callRuntime({
      type: 'command/submit',
      kind: 'cancel',
      sessionId: state?.sessionId ?? '',
      turnId,
      commandId: crypto.randomUUID(),
    }).catch((reason: unknown) => report(`Could not stop the paused turn: ${errorText(reason)}`));

  return {
    running: turn !== undefined || compacting,
    budgetRefusal: refused?.message,
    unsent,
    send,
    steer,
    stop: () => (turn ? turn.stop() : paused && void stopPaused(paused)),
    pause: () => turn?.pause().catch((reason: unknown) => report(`Could not pause: ${errorText(reason)}`)),
    resume,
    compact,
    sendOverBudget: () => refused && send({ ...refused.request, overBudget: true }),
    dismissBudgetRefusal: () => {
      if (!refused) return;
      giveBack(refused.request.text);
      setRefused(undefined);
    },
    giveBack,
  };
}
