import type { RewoundView } from '@/lib/state/client-state';
import { usePanelActions } from '../shared/panel-actions';

const MODE_LABEL: Record<RewoundView['mode'], string> = {
  conversation: 'the conversation',
  values: 'the conversation and the target values',
  versions: 'the conversation, the target values and the authored-target versions',
};

/** Says that the view was rewound and offers the branch it left; gone with the next message or switch. */
export function RewoundNotice({ rewound, enabled }: { rewound: RewoundView; enabled: boolean }) {
  const { showBranch } = usePanelActions();
  const { fromLeaf } = rewound;
  return (
    <div className="notice notice-info rewound-notice" role="status">
      Rewound {MODE_LABEL[rewound.mode]} to before a message. The later turns stay on their branch.
      {fromLeaf && (
        <button
          type="button"
          className="button-quiet"
          disabled={!enabled}
          onClick={() => showBranch(fromLeaf, 'answer')}
        >
          Back to where you were
        </button>
      )}
    </div>
  );
}
