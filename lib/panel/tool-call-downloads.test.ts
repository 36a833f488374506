import type { JsonValue } from '../protocol/json-value';
import { describe, expect, it } from 'vitest';
import { fenceText } from '../page-tools/page-fence';
import { toolCallDownloads } from './tool-call-downloads';

const marker = 'ab'.repeat(16);

describe('toolCallDownloads', () => {
  it('lists the downloads of a result, each name out of its fence', () => {
    const output: JsonValue = {
      ok: true,
      downloads: [
        {
          downloadId: 7,
          name: fenceText('report.pdf', marker),
          size: 1234,
          type: 'application/pdf',
          typeFrom: 'mime',
          site: 'http://127.0.0.1:8000',
          state: 'complete',
          opened: false,
        },
        { downloadId: 'not a number' },
      ],
    };
    expect(toolCallDownloads(output)).toEqual({
      kind: 'listed',
      downloads: [
        {
          downloadId: 7,
          name: 'report.pdf',
          size: 1234,
          type: 'application/pdf',
          typeFrom: 'mime',
          site: 'http://127.0.0.1:8000',
          state: 'complete',
        },
      ],
    });
  });

  it('says when the downloads permission is missing, and nothing for a result without downloads', () => {
    expect(toolCallDownloads({ ok: true, downloads: null })).toEqual({ kind: 'not-permitted' });
    expect(toolCallDownloads({ ok: true, downloads: [] })).toBeUndefined();
    expect(toolCallDownloads({ ok: true })).toBeUndefined();
    expect(toolCallDownloads(undefined)).toBeUndefined();
  });
});
