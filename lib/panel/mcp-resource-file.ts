import type { McpResourcePart } from '../protocol/mcp-resource';

/** A part of a resource read from its server as the File the composer attaches, as if the user had picked it. */
export function mcpResourceFile(resource: McpResourcePart, lastModified: number): File {
  const bytes =
    resource.content.kind === 'text'
      ? new TextEncoder().encode(resource.content.text)
      : Uint8Array.from(atob(resource.content.base64), (character) => character.charCodeAt(0));
  return new File([bytes], resource.name, { type: resource.mimeType, lastModified });
}
