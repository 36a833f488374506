import { describe, expect, it } from 'vitest';
import { describeWriteFailure } from './describe-write-failure';

describe('describeWriteFailure', () => {
  it('names a full storage and what to do', () => {
    expect(describeWriteFailure(new Error('QuotaExceededError '))).toBe(
      'The conversation could not be saved: the browser has no storage space left for the extension (QuotaExceededError). Free some space or delete old conversations, then retry.',
    );
  });

  it('keeps any other reason', () => {
    expect(describeWriteFailure(new Error('Database closed'))).toBe(
      'The conversation could not be saved: Database closed',
    );
    expect(describeWriteFailure('refused')).toBe('The conversation could not be saved: refused');
  });
});
