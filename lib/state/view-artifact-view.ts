import type { ViewArtifactContent } from '../protocol/view-artifact-events';

/** One version of a product-rendered artifact, as `artifact/shown` recorded it. */
export interface ViewArtifactVersion {
  version: number;
  title: string;
  content: ViewArtifactContent;
  toolCallId: string;
  turnId: string;
  time: number;
}

/** A product-rendered artifact with every version it had, oldest first; the last is the current one. */
export interface ViewArtifactView {
  artifactId: string;
  versions: ViewArtifactVersion[];
}
