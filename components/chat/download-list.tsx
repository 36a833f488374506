import { useState } from 'react';
import { formatFileSize } from '@/lib/files/format-file-size';
import type { ListedDownload, ToolCallDownloads } from '@/lib/panel/tool-call-downloads';
import { usePanelActions } from '../shared/panel-actions';

type Choice = 'kept' | 'removed';

function DownloadRow({ download }: { download: ListedDownload }) {
  const { removeDownload } = usePanelActions();
  const [choice, setChoice] = useState<Choice>();
  const [problem, setProblem] = useState<string>();
  const remove = () =>
    void removeDownload(download.downloadId).then((failure) => {
      setProblem(failure);
      if (!failure) setChoice('removed');
    });
  const size = download.size >= 0 ? formatFileSize(download.size) : 'size unknown';
  return (
    <li className="download-row" data-download-id={download.downloadId} data-choice={choice ?? 'undecided'}>
      <span className="download-name">{download.name}</span>
      <span className="download-facts">
        {size} · <span className="download-type">{download.type}</span>
        {download.typeFrom === 'bytes'
          ? ' (from its bytes)'
          : download.typeFrom === 'mime'
            ? ' (as the site sent it)'
            : ''}{' '}
        · {download.site} · {download.state === 'complete' ? 'downloaded' : download.state.replace('_', ' ')}
      </span>
      {choice ? (
        <span className="download-choice">{choice === 'kept' ? 'Kept' : 'Removed'}</span>
      ) : (
        <span className="download-actions">
          <button type="button" onClick={() => setChoice('kept')}>
            Keep
          </button>
          <button type="button" onClick={remove}>
            Remove
          </button>
        </span>
      )}
      {problem && <span className="download-problem">{problem}</span>}
    </li>
  );
}

/** The downloads a page tool's action started: never opened by Splitbrain; the person keeps or removes each. */
export function DownloadList({ downloads }: { downloads: NonNullable<ToolCallDownloads> }) {
  const { allowDownloads } = usePanelActions();
  const [problem, setProblem] = useState<string>();
  if (downloads.kind === 'not-permitted')
    return (
      <div className="tool-downloads">
        <span>Splitbrain cannot see the downloads this action started.</span>{' '}
        <button type="button" onClick={() => void allowDownloads().then(setProblem)}>
          Allow listing downloads
        </button>
        {problem && <span className="download-problem">{problem}</span>}
      </div>
    );
  return (
    <div className="tool-downloads">
      <div className="tool-label">Downloads (not opened)</div>
      <ul className="download-rows">
        {downloads.downloads.map((download) => (
          <DownloadRow key={download.downloadId} download={download} />
        ))}
      </ul>
    </div>
  );
}
