import { rewindTo, switchLeaf } from './branch-tree';
import { ignoreEvent, type EventAppliers } from './event-appliers';

/** The branch in view: a switch to another leaf, a rewind that ends the view at a turn's parent. */
export const BRANCH_APPLIERS: EventAppliers<'branch/switched' | 'rewind/applied' | 'rewind/completed'> = {
  'branch/switched': (copy, event) => {
    if (event.turnId in copy.state.branches.parents) switchLeaf(copy.branches(), event.turnId);
  },
  'rewind/applied': (copy, event) => {
    if (event.turnId in copy.state.branches.parents) rewindTo(copy.branches(), event.turnId, event.data.mode);
  },
  // What a rewind did outside the log (the stage, the saved values): the view changed with `rewind/applied`.
  'rewind/completed': ignoreEvent,
};
