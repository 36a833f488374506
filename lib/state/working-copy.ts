import { copyBranchTree } from './branch-tree';
import type { BranchTree, ClientState } from './client-state';

type TableName =
  'turns' | 'items' | 'streaming' | 'toolCalls' | 'requests' | 'commands' | 'uploads' | 'jobs' | 'viewArtifacts';

/** A batch's writable view of the state: each table is copied once, on its first write. */
export class WorkingCopy {
  readonly state: ClientState;
  private readonly copied = new Set<TableName | 'turnOrder' | 'notifications' | 'branches'>();

  constructor(previous: ClientState) {
    this.state = { ...previous };
  }

  table<TName extends TableName>(name: TName): ClientState[TName] {
    if (!this.copied.has(name)) {
      this.state[name] = { ...this.state[name] } as ClientState[TName];
      this.copied.add(name);
    }
    return this.state[name];
  }

  turnOrder(): string[] {
    if (!this.copied.has('turnOrder')) {
      this.state.turnOrder = [...this.state.turnOrder];
      this.copied.add('turnOrder');
    }
    return this.state.turnOrder;
  }

  branches(): BranchTree {
    if (!this.copied.has('branches')) {
      this.state.branches = copyBranchTree(this.state.branches);
      this.copied.add('branches');
    }
    return this.state.branches;
  }

  notifications(): ClientState['notifications'] {
    if (!this.copied.has('notifications')) {
      this.state.notifications = [...this.state.notifications];
      this.copied.add('notifications');
    }
    return this.state.notifications;
  }
}
