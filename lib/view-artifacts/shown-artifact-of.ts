import type { ToolCallState } from '../state/client-state';

/** The artifact version a finished showArtifact call made, read from its output; none for any other call. */
export function shownArtifactOf(call: ToolCallState): { artifactId: string; version: number } | undefined {
  if (call.toolName !== 'showArtifact' || call.status !== 'done') return undefined;
  const output = call.output;
  if (!output || typeof output !== 'object' || Array.isArray(output)) return undefined;
  const { artifactId, version } = output;
  return typeof artifactId === 'string' && typeof version === 'number' ? { artifactId, version } : undefined;
}
