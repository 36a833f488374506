import { commandDraft, type CommandStateName, type RequestBook } from '../human-loop/request-book';
import type { HumanLoopAccess } from '../human-loop/human-loop';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';

export type CommandResult = { commandId: string; state: CommandStateName | 'unknown'; turnStatus?: string };

/** A resume's answer: when applied, what the model is told with the turn's next request. */
export type ResumeResult = CommandResult & { note?: string; observation?: JsonValue };

export const PAUSE_REASON = 'Paused by the person.';
export const RESUME_NOTE =
  'The person paused you and may have acted on the page or elsewhere themselves before resuming. Your earlier observations are stale: do not repeat or replay actions from before the pause; work from the state as it is now.';

/** What turn commands need of the runtime: the human loop's access, and the one way to stop a turn. */
export interface TurnCommandsAccess extends Pick<HumanLoopAccess, 'lock' | 'now' | 'book' | 'commitDrafts'> {
  /** A cancel was accepted for an open turn: tell its driver, or stop it when it has none. Runs inside the lock. */
  stopTurn(sessionId: string, turnId: string, commandId: string): Promise<void>;
  /** The page as it is now, every older observation of the session retired; undefined when there is none to read. */
  freshObservation?(sessionId: string, callId: string): Promise<JsonValue | undefined>;
}

/**
 * Steer and cancel commands for a turn, by `commandId`: each recorded once with its state (queued, accepted,
 * applied, stale, rejected, cancelled), so a repeated or late command reports what happened and changes nothing.
 */
export class TurnCommands {
  constructor(private readonly access: TurnCommandsAccess) {}

  /** Takes a steer or cancel command for one turn; a repeated command reports its recorded state and changes nothing. */
  submitCommand(command: {
    sessionId: string;
    turnId: string;
    commandId: string;
    kind: 'steer' | 'cancel' | 'pause';
    text?: string;
  }): Promise<CommandResult> {
    const { sessionId, turnId, commandId, kind } = command;
    return this.access.lock.run(sessionId, async () => {
      const book = await this.access.book(sessionId);
      const known = book.commands.get(commandId);
      if (known) return { commandId, state: known.state, ...this.turnStatus(book, known.turnId) };
      const time = this.access.now();
      const record = { commandId, kind, turnId, ...(command.text !== undefined ? { text: command.text } : {}) };
      if (!book.startedTurns.has(turnId)) {
        await this.access.commitDrafts(sessionId, [commandDraft(sessionId, record, time, 'rejected')]);
        return { commandId, state: 'rejected' };
      }
      const ending = book.endedTurns.get(turnId);
      if (ending) {
        const state = kind === 'cancel' && ending.commandId === commandId ? 'applied' : 'stale';
        await this.access.commitDrafts(sessionId, [commandDraft(sessionId, record, time, state)]);
        return { commandId, state, turnStatus: ending.status };
      }
      if (kind === 'pause' && book.isTurnPaused(turnId)) {
        await this.access.commitDrafts(sessionId, [commandDraft(sessionId, record, time, 'stale')]);
        return { commandId, state: 'stale', turnStatus: 'paused' };
      }
      if (kind === 'steer' || kind === 'pause') {
        await this.access.commitDrafts(sessionId, [commandDraft(sessionId, record, time, 'queued')]);
        return { commandId, state: 'queued', turnStatus: 'running' };
      }
      await this.access.commitDrafts(sessionId, [commandDraft(sessionId, record, time, 'accepted')]);
      await this.access.stopTurn(sessionId, turnId, commandId);
      return { commandId, state: book.commands.get(commandId)?.state ?? 'accepted', ...this.turnStatus(book, turnId) };
    });
  }

  private turnStatus(book: RequestBook, turnId: string): { turnStatus?: string } {
    if (!book.startedTurns.has(turnId)) return {};
    return { turnStatus: book.endedTurns.get(turnId)?.status ?? (book.isTurnPaused(turnId) ? 'paused' : 'running') };
  }

  /** The recorded fate of a command, read back by its id after a disconnect. */
  commandStatus(sessionId: string, commandId: string): Promise<CommandResult> {
    return this.access.lock.run(sessionId, async () => {
      const book = await this.access.book(sessionId);
      const known = book.commands.get(commandId);
      return known
        ? { commandId, state: known.state, ...this.turnStatus(book, known.turnId) }
        : { commandId, state: 'unknown' };
    });
  }

  /** Withdraws a steer that is still queued; one already applied, stale or withdrawn reports that state and changes nothing. */
  withdrawSteer(sessionId: string, commandId: string): Promise<CommandResult> {
    return this.access.lock.run(sessionId, async () => {
      const book = await this.access.book(sessionId);
      const known = book.commands.get(commandId);
      if (known?.kind !== 'steer') throw new Error('No such addition in this conversation.');
      if (known.state === 'queued')
        await this.access.commitDrafts(sessionId, [commandDraft(sessionId, known, this.access.now(), 'cancelled')]);
      return {
        commandId,
        state: book.commands.get(commandId)?.state ?? known.state,
        ...this.turnStatus(book, known.turnId),
      };
    });
  }

  /** At a safe point of a turn: hands over the steers queued for it and records them as applied. */
  takeSteers(sessionId: string, turnId: string): Promise<{ commandId: string; text: string }[]> {
    return this.access.lock.run(sessionId, async () => {
      const book = await this.access.book(sessionId);
      if (!book.isTurnOpen(turnId)) return [];
      const queued = [...book.commands.values()].filter(
        (command) => command.turnId === turnId && command.kind === 'steer' && command.state === 'queued',
      );
      if (queued.length === 0) return [];
      const time = this.access.now();
      await this.access.commitDrafts(
        sessionId,
        queued.map((command) => commandDraft(sessionId, command, time, 'applied')),
      );
      return queued.map((command) => ({ commandId: command.commandId, text: command.text ?? '' }));
    });
  }

  /** At a safe point of a running turn: a queued pause is applied and the turn recorded as paused; false when none is queued. */
  takePause(sessionId: string, turnId: string): Promise<boolean> {
    return this.access.lock.run(sessionId, async () => {
      const book = await this.access.book(sessionId);
      if (!book.isTurnOpen(turnId) || book.isTurnPaused(turnId)) return false;
      const pause = [...book.commands.values()].find(
        (command) => command.turnId === turnId && command.kind === 'pause' && command.state === 'queued',
      );
      if (!pause) return false;
      const time = this.access.now();
      await this.access.commitDrafts(sessionId, [
        commandDraft(sessionId, pause, time, 'applied'),
        { type: 'turn/paused', sessionId, turnId, commandId: pause.commandId, time, data: { reason: PAUSE_REASON } },
      ]);
      return true;
    });
  }

  /**
   * Resumes a paused turn once per `commandId`: with `observe`, the page is observed afresh (older observations go
   * stale) and the observation is recorded with the note, so the model's next request carries both.
   */
  resumeTurn(command: {
    sessionId: string;
    turnId: string;
    commandId: string;
    observe: boolean;
  }): Promise<ResumeResult> {
    const { sessionId, turnId, commandId } = command;
    return this.access.lock.run(sessionId, async () => {
      const book = await this.access.book(sessionId);
      const known = book.commands.get(commandId);
      if (known) return { commandId, state: known.state, ...this.turnStatus(book, known.turnId) };
      const record = { commandId, kind: 'resume' as const, turnId };
      if (!book.isTurnPaused(turnId)) {
        const state = book.startedTurns.has(turnId) ? 'stale' : 'rejected';
        await this.access.commitDrafts(sessionId, [commandDraft(sessionId, record, this.access.now(), state)]);
        return { commandId, state, ...this.turnStatus(book, turnId) };
      }
      const observation = command.observe
        ? await this.access.freshObservation?.(sessionId, commandId).catch(() => undefined)
        : undefined;
      const time = this.access.now();
      const resumed: AgentEventDraft = {
        type: 'turn/resumed',
        sessionId,
        turnId,
        commandId,
        time,
        data: { note: RESUME_NOTE, ...(observation !== undefined ? { observation } : {}) },
      };
      await this.access.commitDrafts(sessionId, [commandDraft(sessionId, record, time, 'applied'), resumed]);
      return {
        commandId,
        state: 'applied',
        turnStatus: 'running',
        note: RESUME_NOTE,
        ...(observation !== undefined ? { observation } : {}),
      };
    });
  }
}
