import { useState } from 'react';
import type { ConnectionReport } from '@/lib/providers/test-connection';
import type { ListedModels } from './context-window-fields';
import { draftFromSettings, type EndpointDraft } from '@/lib/settings/endpoint-draft';
import {
  activeProfile,
  deleteProfile,
  selectProfile,
  upsertProfile,
  type EndpointProfile,
  type EndpointProfiles,
} from '@/lib/settings/endpoint-profiles';
import {
  endpointAddress,
  endpointKindLabels,
  endpointModelName,
  type EndpointSettings,
} from '@/lib/settings/endpoint-settings';
import type { OnDeviceStatus } from '@/lib/providers/on-device-availability';
import { EndpointEditor } from './endpoint-editor';
import { EditIcon, PlusIcon, TrashIcon } from '../shared/icons';

export interface EndpointProfilesFormProps {
  profiles: EndpointProfiles;
  /** Stores the profiles; `saved` is the one just saved, whose host may need a permission. Resolves to a note for the user. */
  onStore(profiles: EndpointProfiles, saved?: EndpointSettings): Promise<string>;
  onTest(settings: EndpointSettings): Promise<ConnectionReport>;
  onListModels(settings: EndpointSettings): Promise<ListedModels | { problem: string }>;
  /** What the browser says of its on-device model; the kind is offered only when it has one. */
  onDevice?: OnDeviceStatus;
  onDownloadOnDevice?(): void;
  newId(): string;
}

/** The settings page: saved endpoints with the active one chosen, and an editor for one of them or a new one. */
export function EndpointProfilesForm(props: EndpointProfilesFormProps) {
  const { profiles } = props;
  // `opened` changes only when another profile is opened, so saving keeps the editor and its status line.
  const [editing, setEditing] = useState<{ id: string | undefined; draft: EndpointDraft; opened: number }>(() => {
    const active = activeProfile(profiles);
    return { id: active?.id, draft: draftFromSettings(active), opened: 0 };
  });
  const [note, setNote] = useState('');
  const edit = (profile: EndpointProfile | undefined) =>
    setEditing((current) => ({ id: profile?.id, draft: draftFromSettings(profile), opened: current.opened + 1 }));
  const save = async (settings: EndpointSettings): Promise<string> => {
    const id = editing.id ?? props.newId();
    const upserted = upsertProfile(profiles, { ...settings, id });
    // A new endpoint is what the user means to use next.
    const next = editing.id ? upserted : selectProfile(upserted, id);
    setEditing((current) => ({ ...current, id, draft: draftFromSettings(settings) }));
    return props.onStore(next, settings);
  };
  const remove = async (profile: EndpointProfile) => {
    const next = deleteProfile(profiles, profile.id);
    setNote(await props.onStore(next));
    if (editing.id === profile.id) edit(activeProfile(next));
  };
  const choose = async (profile: EndpointProfile) => setNote(await props.onStore(selectProfile(profiles, profile.id)));
  return (
    <div className="profiles-page">
      <h1>Splitbrain settings</h1>
      <section className="profiles" aria-labelledby="profiles-heading">
        <h2 id="profiles-heading">Endpoints</h2>
        {profiles.profiles.length === 0 ? (
          <p className="hint">No endpoint saved yet: fill in the form below and press Save.</p>
        ) : (
          <ul className="profile-list" aria-label="Saved endpoints">
            {profiles.profiles.map((profile) => (
              <li key={profile.id} className="profile-row" data-active={String(profile.id === profiles.activeId)}>
                <label className="profile-choice">
                  <input
                    type="radio"
                    name="active-endpoint"
                    checked={profile.id === profiles.activeId}
                    onChange={() => void choose(profile)}
                    aria-label={`Use ${profile.label}`}
                  />
                  <span className="profile-text">
                    <strong>{profile.label}</strong>
                    <span className="hint">
                      {endpointKindLabels[profile.kind]} · {endpointModelName(profile)} ·{' '}
                      {hostOf(endpointAddress(profile) ?? 'this device')}
                    </span>
                  </span>
                </label>
                <button
                  type="button"
                  className="icon-button"
                  onClick={() => edit(profile)}
                  aria-label={`Edit ${profile.label}`}
                  title="Edit"
                >
                  <EditIcon />
                </button>
                <button
                  type="button"
                  className="icon-button danger"
                  onClick={() => void remove(profile)}
                  aria-label={`Delete ${profile.label}`}
                  title="Delete"
                >
                  <TrashIcon />
                </button>
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="button-secondary" onClick={() => edit(undefined)}>
          <PlusIcon /> Add endpoint
        </button>
        <p role="status" aria-live="polite" className="status">
          {note}
        </p>
      </section>
      <EndpointEditor
        key={editing.opened}
        draft={editing.draft}
        isNew={editing.id === undefined}
        onChange={(draft) => setEditing((current) => ({ ...current, draft }))}
        onSave={save}
        onTest={props.onTest}
        onListModels={props.onListModels}
        {...(props.onDevice ? { onDevice: props.onDevice } : {})}
        {...(props.onDownloadOnDevice ? { onDownloadOnDevice: props.onDownloadOnDevice } : {})}
        {...(editing.id === undefined && profiles.profiles.length > 0
          ? { onCancel: () => edit(activeProfile(profiles)) }
          : {})}
      />
    </div>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
