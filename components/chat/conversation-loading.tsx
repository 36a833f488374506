import { Spinner } from '../shared/icons';

/** Shown in place of the turns until the conversation's history has arrived (never the empty-chat view). */
export function ConversationLoading() {
  return (
    <div className="conversation-loading" role="status" aria-busy="true">
      <Spinner /> Loading the conversation…
    </div>
  );
}
