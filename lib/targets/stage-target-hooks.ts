import { targetArtifactLoad } from '../authored-targets/target-artifact-catalog';
import type { TargetArtifactControl } from '../authored-targets/target-artifact-control';
import type { CatalogEntry } from '../protocol/target-catalog';
import type { TargetArtifactLoad } from '../protocol/target-artifact-wire';
import type { Runtime } from '../runtime/runtime';
import type { StageLinkOptions } from './stage-link';

export interface StageTargetHooksDependencies {
  /** The address of a file of the extension. */
  extensionUrl(path: string): string;
  /** The runtime: a getter, since it is made after the stage link. */
  runtime(): { targetArtifacts: Pick<TargetArtifactControl, 'load'> } & Pick<Runtime, 'recordNotifications'>;
  newId(): string;
  now(): number;
}

export type StageTargetHooks = Required<Pick<StageLinkOptions, 'entryUrl' | 'artifactContent' | 'onCspViolation'>>;

/** What the stage link asks of the targets it hosts: where each loads from, an authored one's files, its CSP reports. */
export function stageTargetHooks(dependencies: StageTargetHooksDependencies): StageTargetHooks {
  const { extensionUrl, runtime, newId, now } = dependencies;
  return {
    entryUrl: (entry: CatalogEntry) =>
      'entryPath' in entry
        ? extensionUrl(entry.entryPath)
        : 'artifact' in entry
          ? extensionUrl('artifact-host.html')
          : entry.entryUrl,
    artifactContent: async (entry: CatalogEntry): Promise<TargetArtifactLoad> => {
      if (!('artifact' in entry)) throw new Error(`${entry.manifest.id} is not an authored target.`);
      return targetArtifactLoad(
        await runtime().targetArtifacts.load(entry.artifact.sessionId, entry.artifact.artifactId),
      );
    },
    onCspViolation: (entry: CatalogEntry, violation: { directive: string; blockedUrl: string }): void => {
      if (!('artifact' in entry)) return;
      void runtime()
        .recordNotifications(entry.artifact.sessionId, [
          {
            type: 'notify/security-warning',
            sessionId: entry.artifact.sessionId,
            notificationId: newId(),
            time: now(),
            data: {
              warning: 'blocked-request',
              targetId: entry.manifest.id,
              url: violation.blockedUrl.slice(0, 2000),
              message: `"${entry.manifest.title}" tried something its sandbox does not allow (${violation.directive}); it was blocked.`,
            },
          },
        ])
        .catch(() => undefined);
    },
  };
}
