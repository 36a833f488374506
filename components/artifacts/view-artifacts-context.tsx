import { createContext, useContext } from 'react';
import type { ViewArtifactView } from '@/lib/state/view-artifact-view';
import type { ViewProblem } from '@/lib/view-artifacts/view-problems';

/** The conversation's product-rendered artifacts, so a card can show any version of its artifact. */
export const ViewArtifactsContext = createContext<Record<string, ViewArtifactView>>({});

export function useViewArtifact(artifactId: string): ViewArtifactView | undefined {
  return useContext(ViewArtifactsContext)[artifactId];
}

export type FormSubmission = {
  artifactId: string;
  version: number;
  actionId: string;
  payload: Record<string, unknown>;
};

/** The runtime's word on a form submission: nothing when it was accepted, else a message and the problems by path. */
export type FormActionOutcome = { error: string; problems: ViewProblem[] } | undefined;
