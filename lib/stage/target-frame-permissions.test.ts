import { describe, expect, it } from 'vitest';
import { targetFramePermissions } from './target-frame-permissions';

describe('targetFramePermissions', () => {
  it('lets a frame run scripts only, with nothing granted', () => {
    expect(targetFramePermissions(undefined)).toEqual({ sandbox: 'allow-scripts', allow: '' });
    expect(targetFramePermissions([{ permission: 'network', origin: 'https://api.test' }])).toEqual({
      sandbox: 'allow-scripts',
      allow: '',
    });
  });

  it('adds downloads and the clipboard once granted, never allow-same-origin', () => {
    const permissions = targetFramePermissions([{ permission: 'download' }, { permission: 'clipboard' }]);
    expect(permissions).toEqual({ sandbox: 'allow-scripts allow-downloads', allow: 'clipboard-write' });
    expect(permissions.sandbox).not.toContain('allow-same-origin');
  });
});
