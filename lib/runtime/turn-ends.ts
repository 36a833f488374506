import type { AgentEventDraft } from '../protocol/agent-event';
import { REQUEST_BOOK } from '../human-loop/request-book-feature';
import type { OpenWork } from '../session-log/open-work';
import type { SessionLock } from '../session-log/session-lock';
import type { SessionStates } from '../session-log/session-projection';
import type { CommandResult, TurnCommands } from './turn-commands';
import type { TurnOwners } from './turn-owners';

export interface TurnEndsAccess {
  lock: SessionLock;
  now(): number;
  newId(): string;
  owners: TurnOwners;
  openWork(sessionId: string): Promise<OpenWork>;
  /** Stamps and records drafts; the caller holds the session's lock. */
  commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  submitCommand: TurnCommands['submitCommand'];
}

/** The runtime ending turns: those whose driver is gone (a closed panel, a restart) and those the user stops. */
export class TurnEnds {
  constructor(private readonly access: TurnEndsAccess) {}

  /** Stop, as the panel's: a cancel command for every running turn of the session (a paused one is not acting). */
  async stopRunning(sessionId: string): Promise<CommandResult[]> {
    const { access } = this;
    const running = await access.lock.run(sessionId, async () => [...(await access.openWork(sessionId)).openTurns]);
    return Promise.all(
      running.map((turnId) => access.submitCommand({ sessionId, turnId, commandId: access.newId(), kind: 'cancel' })),
    );
  }

  /** A cancel for an open turn goes to the panel that drives it; a turn nobody drives is stopped here. */
  async stop(sessionId: string, turnId: string, commandId: string): Promise<void> {
    const listener = this.access.owners.listenerFor(turnId);
    // A turn whose driver is gone is stopped here, so a cancel never waits on nobody.
    if (listener) listener({ turnId, commandId });
    else
      await this.endOpenTurn(
        sessionId,
        await this.access.openWork(sessionId),
        turnId,
        'Stopped by the user.',
        commandId,
      );
  }

  /** The turns a client drove, recorded as interrupted when it goes away. */
  async ownerGone(ownerId: string, sessionIds: Iterable<string>, reason: string): Promise<void> {
    const turns = this.access.owners.remove(ownerId);
    if (turns.size === 0) return;
    for (const sessionId of sessionIds) {
      await this.access.lock.run(sessionId, async () => {
        const work = await this.access.openWork(sessionId);
        for (const turnId of turns) {
          if (work.openTurns.has(turnId)) await this.endOpenTurn(sessionId, work, turnId, reason);
        }
      });
    }
  }

  /** Turns still open in the log whose driver is gone (after a restart) are recorded as interrupted. */
  async interruptOrphaned(sessionId: string, reason: string): Promise<void> {
    await this.access.lock.run(sessionId, async () => {
      const work = await this.access.openWork(sessionId);
      for (const turnId of [...work.openTurns]) {
        if (!this.access.owners.isOwned(turnId)) await this.endOpenTurn(sessionId, work, turnId, reason);
      }
    });
  }

  /** Ends a turn nobody drives, with its unfinished items: aborted when a cancel command stopped it, else interrupted. */
  private async endOpenTurn(
    sessionId: string,
    work: OpenWork,
    turnId: string,
    reason: string,
    commandId?: string,
  ): Promise<void> {
    const time = this.access.now();
    const end: AgentEventDraft = commandId
      ? { type: 'turn/aborted', sessionId, turnId, commandId, time, data: { reason } }
      : { type: 'turn/interrupted', sessionId, turnId, time, data: { reason } };
    const items = work.itemsOfTurn(turnId).map((item): AgentEventDraft => ({
      type: item.kind === 'assistant' ? 'assistant/interrupted' : 'reasoning/interrupted',
      sessionId,
      turnId,
      stepId: item.stepId,
      attemptId: item.attemptId,
      itemId: item.itemId,
      time,
      data: { text: item.text, reason },
    }));
    await this.access.commitDrafts(sessionId, [...items, end]);
  }
}

/** A turn ends once: a driver's late end for a turn the runtime already ended (a cancel, a restart) is not recorded again. */
export function isNotEndedAgain(draft: AgentEventDraft, states: SessionStates): boolean {
  const turnId = (draft as { turnId?: string } | undefined)?.turnId ?? '';
  return !(isTurnEnd(draft?.type) && states.of(REQUEST_BOOK).endedTurns.has(turnId));
}

function isTurnEnd(type: string | undefined): boolean {
  return type === 'turn/completed' || type === 'turn/aborted' || type === 'turn/interrupted';
}
