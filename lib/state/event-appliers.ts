import type { AgentEventOf, AgentEventType } from '../protocol/agent-event';
import type { WorkingCopy } from './working-copy';

/** How one in-order event of type `TType` changes the working copy. */
export type EventApplier<TType extends AgentEventType> = (copy: WorkingCopy, event: AgentEventOf<TType>) => void;

/** One applier for each event type of a family: its part of the reducer's dispatch table. */
export type EventAppliers<TType extends AgentEventType = AgentEventType> = { [Type in TType]: EventApplier<Type> };

/** For an event that changes nothing the panel shows. */
export function ignoreEvent(): void {}
