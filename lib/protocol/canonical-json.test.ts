import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts the keys of every object, at any depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[1,{"y":1,"z":0}]},"b":1}',
    );
  });

  it('gives equal values the same text whatever their key order', () => {
    expect(canonicalJson({ speed: 3, mode: 'auto' })).toBe(canonicalJson({ mode: 'auto', speed: 3 }));
  });

  it('leaves out undefined properties and writes undefined elsewhere as null, like JSON', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([undefined])).toBe('[null]');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('writes scalars as JSON does', () => {
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(1.5)).toBe('1.5');
  });
});
