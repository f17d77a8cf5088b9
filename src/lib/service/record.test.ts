import { describe, expect, it } from 'vitest';
import { setOwn } from './record.ts';

describe('setOwn', () => {
  it('never sets a prototype, even for a `__proto__` key', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('makes the same own property for every key as defining it would, in insertion order', () => {
    const keys = ['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__', 'a', '2'];
    const target: Record<string, unknown> = {};
    const defined: Record<string, unknown> = {};
    for (const key of keys) {
      setOwn(target, key, `${key}!`);
      Object.defineProperty(defined, key, {
        value: `${key}!`,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    // as entries: a `__proto__` key in the descriptor maps would confuse a deep comparison
    expect(Object.entries(Object.getOwnPropertyDescriptors(target))).toStrictEqual(
      Object.entries(Object.getOwnPropertyDescriptors(defined)),
    );
    expect(Object.keys(target)).toEqual(Object.keys(defined));
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
  });

  it('replaces a value set before without moving the key', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, 'a', 1);
    setOwn(target, 'b', 2);
    setOwn(target, 'a', 3);
    expect(Object.entries(target)).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });
});
