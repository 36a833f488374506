import { describe, expect, it } from 'vitest';
import type { PageRefInfo } from '../protocol/page-wire';
import { observedRecord } from '../../tests/support/page-observation-data';

const box = { x: 10, y: 10, width: 100, height: 20 };

function field(name: string, inputType?: string): PageRefInfo {
  return { role: 'textbox', name, tag: 'input', box, inViewport: true, ...(inputType ? { inputType } : {}) };
}

describe('observationRecord', () => {
  it('marks a password field by its input type whatever it is called, and keeps the type for the staleness check', () => {
    const record = observedRecord({
      e1: field('Secret', 'password'),
      e2: field('Password hint', 'text'),
      e3: field('Attachment', 'file'),
      e4: field('Your PIN'),
    });
    expect(record.refs.e1).toMatchObject({ sensitive: 'password', inputType: 'password' });
    expect(record.refs.e2.sensitive).toBeUndefined();
    expect(record.refs.e3.sensitive).toBe('file');
    // Without a reported type (the page agent reports one for every input), by its name.
    expect(record.refs.e4.sensitive).toBe('password');
  });
});
