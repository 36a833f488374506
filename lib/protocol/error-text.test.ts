import { describe, expect, it } from 'vitest';
import { errorText } from './error-text';

class NamedError extends Error {
  override name = 'DatabaseClosedError';
}

describe('errorText', () => {
  it("gives an Error's message and anything else as a string", () => {
    expect(errorText(new Error('boom'))).toBe('boom');
    expect(errorText('plain')).toBe('plain');
    expect(errorText(42)).toBe('42');
    expect(errorText(undefined)).toBe('undefined');
    expect(errorText({ code: 1 })).toBe('[object Object]');
    expect(errorText(new NamedError(''))).toBe('');
  });

  it('names an Error without a message when asked', () => {
    expect(errorText(new NamedError(''), { nameWhenEmpty: true })).toBe('DatabaseClosedError');
    expect(errorText(new NamedError('closed'), { nameWhenEmpty: true })).toBe('closed');
    expect(errorText('', { nameWhenEmpty: true })).toBe('');
  });

  it('writes other thrown values as JSON when asked, and as a string when they have none', () => {
    expect(errorText({ code: 1 }, { json: true })).toBe('{"code":1}');
    expect(errorText([1, 2], { json: true })).toBe('[1,2]');
    expect(errorText('plain', { json: true })).toBe('plain');
    expect(errorText(new Error('boom'), { json: true })).toBe('boom');
    expect(errorText(undefined, { json: true })).toBe('undefined');
    expect(errorText(10n, { json: true })).toBe('10');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(errorText(circular, { json: true })).toBe('[object Object]');
  });
});
