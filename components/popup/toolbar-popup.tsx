import type { ParameterValue } from '@/lib/manifest/parameter-validation';
import type { ParameterFormState } from '@/lib/popup/parameter-form-state';
import type { FieldResult } from '@/lib/popup/parameter-outcome';
import type { TargetListItem } from '@/lib/popup/target-list-items';
import { AddTargetForm } from './add-target-form';
import { ParameterForm } from './parameter-form/parameter-form';
import { TargetList } from './target-list';
import type { AuthoredTargetAction } from './authored-target-controls';

export interface ToolbarPopupProps {
  items: TargetListItem[] | undefined;
  form: ParameterFormState | undefined;
  notice?: FieldResult;
  opening?: string;
  resetting: boolean;
  adding: boolean;
  addResult?: FieldResult;
  onOpenChat(): void;
  onOpenTarget(targetId: string): void;
  onRemoveTarget(targetId: string): void;
  onChangeParameter(param: string, value: ParameterValue): void;
  onReset(): void;
  onAddTarget(url: string): void;
  onAuthoredAction?(action: AuthoredTargetAction): void;
}

export function ToolbarPopup(props: ToolbarPopupProps) {
  const { items, form, notice } = props;
  return (
    <main className="toolbar-popup">
      <header className="popup-header">
        <span className="brand">
          <img className="brand-mark" src="/icon/32.png" alt="" />
          Splitbrain
        </span>
        <button type="button" className="primary" onClick={props.onOpenChat}>
          Open chat
        </button>
      </header>
      {notice && (
        <p className={`popup-notice tone-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.message}
        </p>
      )}
      <section className="targets" aria-labelledby="targets-title">
        <h2 id="targets-title">Targets</h2>
        {items ? (
          <TargetList
            items={items}
            opening={props.opening}
            onOpen={props.onOpenTarget}
            onRemove={props.onRemoveTarget}
            {...(props.onAuthoredAction ? { onAuthoredAction: props.onAuthoredAction } : {})}
          />
        ) : (
          <p className="hint">Loading targets…</p>
        )}
      </section>
      {form ? (
        <ParameterForm
          form={form}
          resetting={props.resetting}
          onChange={props.onChangeParameter}
          onReset={props.onReset}
        />
      ) : (
        items && (
          <p className="hint empty-form">
            No target is open in the stage. Choose one above to open it and control it here.
          </p>
        )
      )}
      <AddTargetForm busy={props.adding} result={props.addResult} onAdd={props.onAddTarget} />
    </main>
  );
}
