import { describe, expect, it } from 'vitest';
import { StageCallRecord } from './stage-call-record';

describe('StageCallRecord', () => {
  it('says hello with nothing shown and nothing done', () => {
    expect(new StageCallRecord(42).hello(undefined)).toEqual({
      type: 'stage/hello',
      recent: [],
      received: [],
      startedAt: 42,
    });
  });

  it('names the target shown, a preview and an app', () => {
    const record = new StageCallRecord(1);
    expect(record.hello({ targetId: 'counter', preview: false, isApp: false })).toMatchObject({
      activeTargetId: 'counter',
    });
    expect(record.hello({ targetId: 'counter', preview: false, isApp: false })).not.toHaveProperty('previewing');
    expect(record.hello({ targetId: 'counter', preview: true, isApp: false })).toMatchObject({ previewing: true });
    expect(record.hello({ targetId: 'app', preview: false, isApp: true })).toMatchObject({ activeApp: true });
  });

  it('notes each received call once, and none without a call key', () => {
    const record = new StageCallRecord(1);
    expect(record.receive('call-1')).toBe(true);
    expect(record.receive('call-1')).toBe(false);
    expect(record.receive(undefined)).toBe(false);
    expect(record.receive('call-2')).toBe(true);
    expect(record.receivedCount).toBe(2);
    expect(record.hello(undefined).received).toEqual(['call-1', 'call-2']);
  });

  it('keeps the last 1000 received calls', () => {
    const record = new StageCallRecord(1);
    for (let index = 0; index < 1005; index += 1) record.receive(`call-${index}`);
    const { received } = record.hello(undefined);
    expect(received).toHaveLength(1000);
    expect(received[0]).toBe('call-5');
  });

  it('remembers what it did for the last 100 calls with a call key', () => {
    const record = new StageCallRecord(1);
    record.remember(undefined, 'open', 'counter', {});
    for (let index = 0; index < 102; index += 1) record.remember(`call-${index}`, 'apply', 'counter', { n: index });
    const { recent } = record.hello(undefined);
    expect(recent).toHaveLength(100);
    expect(recent[0]).toEqual({ callKey: 'call-2', type: 'apply', targetId: 'counter', state: { n: 2 } });
  });
});
