import type { TargetArtifactInfo } from '@/lib/protocol/target-artifact-info';
import type { TargetGrant } from '@/lib/protocol/target-artifact-events';

export type AuthoredTargetAction =
  | { kind: 'restore'; info: TargetArtifactInfo; version: number }
  | { kind: 'open-version'; info: TargetArtifactInfo; version: number }
  | { kind: 'grant'; info: TargetArtifactInfo; grant: TargetGrant; granted: boolean }
  | { kind: 'export'; info: TargetArtifactInfo };

function grantLabel(grant: TargetGrant): string {
  return grant.permission === 'network' ? `network: ${grant.origin ?? ''}` : grant.permission;
}

function isGranted(info: TargetArtifactInfo, grant: TargetGrant): boolean {
  return info.granted.some((known) => known.permission === grant.permission && known.origin === grant.origin);
}

/** The versions, permissions and export of a target the model made: what only the user decides. */
export function AuthoredTargetControls({
  info,
  onAction,
}: {
  info: TargetArtifactInfo;
  onAction(action: AuthoredTargetAction): void;
}) {
  const older = info.versions.filter((known) => known.state === 'superseded');
  return (
    <div className="authored-controls">
      {info.requested.length > 0 && (
        <ul className="authored-grants" aria-label="Permissions it asks for">
          {info.requested.map((grant) => {
            const granted = isGranted(info, grant);
            return (
              <li key={grantLabel(grant)} data-granted={granted ? 'true' : 'false'}>
                <span>{grantLabel(grant)}</span>
                {granted && <span className="pill pill-active">Granted</span>}
                <button
                  type="button"
                  data-grant={grantLabel(grant)}
                  onClick={() => onAction({ kind: 'grant', info, grant, granted: !granted })}
                >
                  {granted ? 'Revoke' : 'Grant'}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {older.length > 0 && (
        <p className="authored-versions">
          Older versions:{' '}
          {older.map((known) => (
            <span key={known.version} className="authored-version">
              <button
                type="button"
                data-open-version={known.version}
                onClick={() => onAction({ kind: 'open-version', info, version: known.version })}
              >
                Open v{known.version}
              </button>
              <button
                type="button"
                data-restore-version={known.version}
                onClick={() => onAction({ kind: 'restore', info, version: known.version })}
              >
                Restore v{known.version}
              </button>
            </span>
          ))}
        </p>
      )}
      <button type="button" className="authored-export" onClick={() => onAction({ kind: 'export', info })}>
        Save as target folder
      </button>
    </div>
  );
}
