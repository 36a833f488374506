import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import type { BlobRef } from '../protocol/blob-ref';
import { attachedFile } from './attached-file';

function blob(name: string, digit: string): BlobRef {
  const sha256 = digit.repeat(64);
  return { blobId: sha256, sha256, mime: 'text/csv', size: 12, name };
}

function turn(turnId: string, blobs: BlobRef[]): AgentEvent {
  return {
    schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
    sessionId: 's1',
    seq: 1,
    time: 0,
    durable: true,
    type: 'turn/started',
    turnId,
    data: {
      userItemId: `u-${turnId}`,
      text: 'Upload it',
      attachments: blobs.map((ref, index) => ({ uploadId: `up${index}`, partId: `p${index}`, blob: ref })),
    },
  };
}

describe('attachedFile', () => {
  const first = blob('data.csv', 'a');
  const again = blob('data.csv', 'b');
  const events = [turn('t1', [first, blob('chart.png', 'c')]), turn('t2', [again])];

  it('finds a file attached in the conversation by its name, the newest of that name', () => {
    expect(attachedFile(events, 'data.csv')).toEqual(again);
  });

  it('finds one by its sha256', () => {
    expect(attachedFile(events, 'A'.repeat(64))).toEqual(first);
  });

  it('finds none that was not attached here', () => {
    expect(attachedFile(events, 'secret.pdf')).toBeUndefined();
    expect(attachedFile([], 'data.csv')).toBeUndefined();
  });
});
