import { APP_DOWNLOAD_TOOL } from '../protocol/mcp-app-download';
import type { RequestState } from '../state/client-state';

/** What the browser must grant in the Allow click of an approval (the click is the gesture it requires). */
export type ApprovalPermission = { kind: 'site'; origin: string } | { kind: 'downloads' } | undefined;

/**
 * Access to the site a page tool's first call there acts on, or the downloads permission for an MCP App's files,
 * which the stage saves through the browser's downloads once allowed; nothing for any other approval.
 */
export function approvalPermission(request: RequestState, toolName: string | undefined): ApprovalPermission {
  if (request.siteOrigin) return { kind: 'site', origin: request.siteOrigin };
  if (toolName === APP_DOWNLOAD_TOOL) return { kind: 'downloads' };
  return undefined;
}
