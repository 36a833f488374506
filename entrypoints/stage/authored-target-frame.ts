import { grantedOrigin } from '@/lib/authored-targets/granted-origin';
import type { TargetGrant } from '@/lib/protocol/target-artifact-events';
import {
  ARTIFACT_STAGE_SOURCE,
  artifactHostMessageSchema,
  type ArtifactFetchResult,
  type ArtifactHostMessage,
  type TargetArtifactLoad,
} from '@/lib/protocol/target-artifact-wire';
import type { CspViolationReports } from '@/lib/stage/csp-violation-reports';
import { relayedFetch } from '@/lib/stage/relayed-fetch';

/** A target made in a conversation, in the stage's frame: its host page's own messages. */
export class AuthoredTargetFrame {
  /** The target's files, handed to its host page once when it asks; then undefined. */
  private artifact: TargetArtifactLoad | undefined;
  private readonly granted: TargetGrant[];

  constructor(
    private readonly frame: HTMLIFrameElement,
    artifact: TargetArtifactLoad,
    private readonly violations: CspViolationReports,
  ) {
    this.artifact = artifact;
    this.granted = artifact.granted;
  }

  /** Its request for the files, its relayed fetches and the CSP violations it saw; false for any other message. */
  receive(data: unknown): boolean {
    const parsed = artifactHostMessageSchema.safeParse(data);
    if (!parsed.success) return false;
    if (parsed.data.type === 'host-ready') {
      const artifact = this.artifact;
      this.artifact = undefined;
      if (artifact)
        this.frame.contentWindow?.postMessage({ source: ARTIFACT_STAGE_SOURCE, type: 'load', artifact }, '*');
      return true;
    }
    if (parsed.data.type === 'fetch') {
      void this.relayFetch(parsed.data).then((result) => this.frame.contentWindow?.postMessage(result, '*'));
      return true;
    }
    this.violations.report(parsed.data.directive, parsed.data.blockedUrl);
    return true;
  }

  /** A fetch to an origin the user granted it: checked here again, no cookies, no redirects. */
  private async relayFetch(request: Extract<ArtifactHostMessage, { type: 'fetch' }>): Promise<ArtifactFetchResult> {
    const answer = { source: ARTIFACT_STAGE_SOURCE, type: 'fetch-result', id: request.id } as const;
    const relayed = await relayedFetch(
      request,
      (url) => grantedOrigin(url, this.granted),
      'This origin was not granted.',
    );
    return { ...answer, ...relayed };
  }
}
