import { describe, expect, it } from 'vitest';
import type { RequestState } from '../state/client-state';
import { approvalPermission } from './approval-permission';

const request: RequestState = {
  requestId: 'r1',
  turnId: 't1',
  kind: 'approval',
  toolCallId: 'c1',
  status: 'pending',
  summary: 'Allow?',
};

describe('approvalPermission', () => {
  it('asks for the site of a page tool, the downloads permission for an app’s files, and nothing else', () => {
    expect(approvalPermission({ ...request, siteOrigin: 'https://example.com' }, 'actOnPage')).toEqual({
      kind: 'site',
      origin: 'https://example.com',
    });
    expect(approvalPermission(request, 'app_download_file')).toEqual({ kind: 'downloads' });
    expect(approvalPermission(request, 'app_open_link')).toBeUndefined();
    expect(approvalPermission(request, undefined)).toBeUndefined();
  });
});
