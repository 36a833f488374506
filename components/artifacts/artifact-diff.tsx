import type { DiffData } from '@/lib/protocol/view-artifact-data';
import { diffView } from '@/lib/view-artifacts/view-diff-lines';

const MARK = { add: '+', remove: '−', context: ' ' } as const;

/** A diff artifact: jsdiff's hunks as lines, added and removed marked by sign and colour. */
export function ArtifactDiff({ data }: { data: DiffData }) {
  const view = diffView(data);
  return (
    <div className="artifact-diff">
      <p className="artifact-diff-stats">
        {'filename' in data && data.filename && <span className="artifact-diff-file">{data.filename} </span>}
        <span className="diff-added">+{view.added}</span> <span className="diff-removed">−{view.removed}</span>
      </p>
      <pre className="artifact-diff-lines">
        {view.lines.map((line, index) =>
          line.kind === 'add' || line.kind === 'remove' || line.kind === 'context' ? (
            <div key={index} className={`diff-line diff-${line.kind}`} data-kind={line.kind}>
              <span className="diff-number" aria-hidden="true">
                {line.oldLine ?? ''}
              </span>
              <span className="diff-number" aria-hidden="true">
                {line.newLine ?? ''}
              </span>
              <span className="diff-mark">{MARK[line.kind]}</span>
              <span className="diff-text">{line.text}</span>
            </div>
          ) : (
            <div key={index} className={`diff-line diff-${line.kind}`} data-kind={line.kind}>
              {line.text}
            </div>
          ),
        )}
      </pre>
    </div>
  );
}
