import type { CodeData } from '@/lib/protocol/view-artifact-data';
import { codeFence } from '@/lib/view-artifacts/code-fence';
import { MarkdownBlock } from '../markdown/markdown-block';

/** A code artifact, through the panel's markdown renderer and its highlighting (raw HTML there is only text). */
export function ArtifactCode({ data }: { data: CodeData }) {
  return (
    <div className="artifact-code">
      {data.filename && <p className="artifact-code-file">{data.filename}</p>}
      <MarkdownBlock source={codeFence(data.language, data.text)} highlight />
    </div>
  );
}
