import { useState } from 'react';
import type { ViewArtifactContent } from '@/lib/protocol/view-artifact-events';
import { ArtifactChart } from './artifact-chart';
import { ArtifactCode } from './artifact-code';
import { ArtifactDiff } from './artifact-diff';
import { ArtifactPlan } from './artifact-plan';
import { ArtifactTable } from './artifact-table';
import { useViewArtifact } from './view-artifacts-context';

const KIND_LABEL: Record<ViewArtifactContent['kind'], string> = {
  table: 'Table',
  chart: 'Chart',
  diff: 'Diff',
  plan: 'Plan',
  code: 'Code',
};

function ArtifactBody({ content, title }: { content: ViewArtifactContent; title: string }) {
  switch (content.kind) {
    case 'table':
      return <ArtifactTable data={content.data} caption={title} />;
    case 'chart':
      return <ArtifactChart data={content.data} title={title} />;
    case 'diff':
      return <ArtifactDiff data={content.data} />;
    case 'plan':
      return <ArtifactPlan data={content.data} />;
    case 'code':
      return <ArtifactCode data={content.data} />;
  }
}

/** The card of a showArtifact call: the version it made, and every other version of the artifact one click away. */
export function ViewArtifactCard({ artifactId, version }: { artifactId: string; version: number }) {
  const artifact = useViewArtifact(artifactId);
  const [chosen, setChosen] = useState<number>();
  if (!artifact) return null;
  const latest = artifact.versions.at(-1)!;
  const shown = artifact.versions.find((candidate) => candidate.version === (chosen ?? version)) ?? latest;
  return (
    <section
      className="view-artifact-card"
      aria-label={`${KIND_LABEL[shown.content.kind]}: ${shown.title}`}
      data-artifact-id={artifactId}
      data-kind={shown.content.kind}
      data-version={shown.version}
    >
      <header className="artifact-head">
        <span className="artifact-kind">{KIND_LABEL[shown.content.kind]}</span>
        <span className="artifact-title">{shown.title}</span>
        <span className="artifact-version">
          v{shown.version}
          {shown.version !== latest.version ? ` · latest v${latest.version}` : ''}
        </span>
      </header>
      {artifact.versions.length > 1 && (
        <div className="artifact-versions" role="group" aria-label="Versions">
          {artifact.versions.map((candidate) => (
            <button
              key={candidate.version}
              type="button"
              className="artifact-version-button"
              aria-pressed={candidate.version === shown.version}
              onClick={() => setChosen(candidate.version)}
            >
              v{candidate.version}
            </button>
          ))}
        </div>
      )}
      <ArtifactBody content={shown.content} title={shown.title} />
    </section>
  );
}
