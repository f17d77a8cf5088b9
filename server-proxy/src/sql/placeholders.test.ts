import { describe, expect, it } from 'vitest';
import { placeholders, tuples } from './placeholders.ts';

describe('placeholders', () => {
  it('lists count question marks', () => {
    expect(placeholders(1)).toBe('?');
    expect(placeholders(3)).toBe('?, ?, ?');
  });

  it('gives an empty list for none (callers skip the statement)', () => {
    expect(placeholders(0)).toBe('');
  });
});

describe('tuples', () => {
  it('repeats one row of width placeholders', () => {
    expect(tuples(2, 3)).toBe('(?, ?, ?), (?, ?, ?)');
    expect(tuples(3, 1)).toBe('(?), (?), (?)');
  });
});
