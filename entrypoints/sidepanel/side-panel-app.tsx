import { useState } from 'react';
import { BlobContext } from '@/components/files/blob-context';
import { ChatPanel } from '@/components/chat/chat-panel';
import { PanelActionsContext } from '@/components/shared/panel-actions';
import { UsagePricesContext } from '@/components/usage/usage-prices-context';
import { ViewArtifactsContext } from '@/components/artifacts/view-artifacts-context';
import { readBlobForPreview } from './panel-blob-store';
import { usePanelShortcut } from './panel-shortcut';
import { useAttachments } from './use-attachments';
import { useCurrentPage } from './use-current-page';
import { useEndpoint } from './use-endpoint';
import { useRuntimeConnection } from './use-runtime-connection';
import { useSessions } from './use-sessions';
import { useSidePanelActions } from './use-side-panel-actions';
import { useTurn } from './use-turn';
import { useFoundTurnBranch } from './use-found-turn-branch';
import { useUsageSettings } from './use-usage-settings';
import type { TurnJump } from '@/lib/panel/turn-jump';

export function SidePanelApp() {
  const [error, setError] = useState<string>();
  const [jumpTo, setJumpTo] = useState<TurnJump>();
  const endpoint = useEndpoint();
  const sessions = useSessions(setError);
  const connection = useRuntimeConnection(sessions.sessionId);
  const { state } = connection;
  const files = useAttachments(state, endpoint.settings);
  const turn = useTurn({
    connection,
    endpoint: endpoint.settings,
    state,
    report: setError,
    sent: files.sent,
    ended: sessions.refresh,
  });
  const currentPage = useCurrentPage(sessions.sessionId);
  const usageSettings = useUsageSettings();
  const shortcut = usePanelShortcut();
  const actions = useSidePanelActions({
    state,
    endpoint: endpoint.settings,
    connection,
    sessions,
    turn,
    files,
    currentPage,
    report: setError,
    jump: setJumpTo,
  });
  useFoundTurnBranch(state, jumpTo, turn.running, setError);

  if (!state) return <div className="chat-panel" aria-busy="true" />;
  return (
    <PanelActionsContext.Provider value={actions}>
      <UsagePricesContext.Provider value={usageSettings.prices}>
        <BlobContext.Provider value={readBlobForPreview}>
          <ViewArtifactsContext.Provider value={state.viewArtifacts}>
            <ChatPanel
              state={state}
              endpoint={endpoint.settings}
              endpointLoaded={endpoint.loaded}
              running={turn.running}
              connection={{ status: connection.status, failure: connection.failure }}
              sessions={sessions.sessions}
              error={error}
              notice={sessions.notice}
              budgetRefusal={turn.budgetRefusal}
              unsent={turn.unsent}
              shortcut={shortcut}
              files={files.composer}
              page={currentPage.page}
              jumpTo={jumpTo}
            />
          </ViewArtifactsContext.Provider>
        </BlobContext.Provider>
      </UsagePricesContext.Provider>
    </PanelActionsContext.Provider>
  );
}
