import type { AgentEvent, AgentEventOf } from '../protocol/agent-event';
import {
  TARGET_ARTIFACT_EVENT_TYPES,
  type TargetArtifactParts,
  type TargetArtifactProblem,
  type TargetGrant,
} from '../protocol/target-artifact-events';
import type { StoredTargetArtifact } from '../protocol/stored-snapshot';

export type TargetVersionState = 'draft' | 'ready' | 'rejected' | 'superseded';

export interface TargetArtifactVersion {
  version: number;
  state: TargetVersionState;
  parts: TargetArtifactParts;
  baseVersion?: number;
  restoredFrom?: number;
  requested: TargetGrant[];
  problems: TargetArtifactProblem[];
}

export interface TargetArtifactRecord {
  artifactId: string;
  /** The ready version in use, if any. */
  current: number | undefined;
  /** The highest version number given out, ready or not. */
  latest: number;
  versions: Map<number, TargetArtifactVersion>;
  granted: TargetGrant[];
}

type TargetArtifactEvent = AgentEventOf<(typeof TARGET_ARTIFACT_EVENT_TYPES)[number]>;

const TYPES = new Set<string>(TARGET_ARTIFACT_EVENT_TYPES);

export function isTargetArtifactEvent(event: AgentEvent): event is TargetArtifactEvent {
  return TYPES.has(event.type);
}

export function sameGrant(left: TargetGrant, right: TargetGrant): boolean {
  return left.permission === right.permission && (left.origin ?? '') === (right.origin ?? '');
}

/** A session's authored targets as its log says: versions, their states, and the user's grants. */
export class TargetArtifactLedger {
  private readonly records = new Map<string, TargetArtifactRecord>();

  /** The ledger as a snapshot keeps it (lib/protocol/stored-snapshot.ts), so a session opens without its log. */
  stored(): StoredTargetArtifact[] {
    return structuredClone(
      [...this.records.values()].map(({ current, versions, ...record }) => ({
        ...record,
        ...(current !== undefined ? { current } : {}),
        versions: [...versions.values()],
      })),
    );
  }

  static restored(stored: readonly StoredTargetArtifact[]): TargetArtifactLedger {
    const ledger = new TargetArtifactLedger();
    for (const { current, versions, ...record } of structuredClone(stored))
      ledger.records.set(record.artifactId, {
        ...record,
        current,
        versions: new Map(versions.map((version) => [version.version, version])),
      });
    return ledger;
  }

  get(artifactId: string): TargetArtifactRecord | undefined {
    return this.records.get(artifactId);
  }

  all(): TargetArtifactRecord[] {
    return [...this.records.values()];
  }

  observe(event: AgentEvent): void {
    if (!isTargetArtifactEvent(event)) return;
    if (event.type === 'artifact/created') {
      const record = this.records.get(event.artifactId) ?? {
        artifactId: event.artifactId,
        current: undefined,
        latest: 0,
        versions: new Map(),
        granted: [],
      };
      const { version, parts, baseVersion, restoredFrom } = event.data;
      record.versions.set(version, {
        version,
        state: 'draft',
        parts,
        requested: [],
        problems: [],
        ...(baseVersion !== undefined ? { baseVersion } : {}),
        ...(restoredFrom !== undefined ? { restoredFrom } : {}),
      });
      record.latest = Math.max(record.latest, version);
      this.records.set(event.artifactId, record);
      return;
    }
    const record = this.records.get(event.artifactId);
    if (!record) return;
    if (event.type === 'artifact/permission-granted') {
      if (!record.granted.some((grant) => sameGrant(grant, event.data))) record.granted.push(event.data);
      return;
    }
    if (event.type === 'artifact/permission-revoked') {
      record.granted = record.granted.filter((grant) => !sameGrant(grant, event.data));
      return;
    }
    const version = record.versions.get(event.data.version);
    if (!version) return;
    if (event.type === 'artifact/ready') {
      version.state = 'ready';
      version.requested = event.data.requested;
      record.current = event.data.version;
    } else if (event.type === 'artifact/rejected') {
      version.state = 'rejected';
      version.problems = event.data.problems;
    } else if (event.type === 'artifact/superseded') {
      version.state = 'superseded';
    }
  }
}
