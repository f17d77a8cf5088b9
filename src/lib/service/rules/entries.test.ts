import { describe, expect, it } from 'vitest';
import { checkIdentifiers, classifyEntry, identifierOf, splitIdentifiers } from './entries.ts';

describe('identifierOf', () => {
  it.each([
    ['568253', { kind: 'dot', dot: '568253' }],
    ['USDOT 568253', { kind: 'dot', dot: '568253' }],
    ['usdot#0568253', { kind: 'dot', dot: '568253' }],
    ['DOT: 568253', { kind: 'dot', dot: '568253' }],
    ['568253-MC277621', { kind: 'dot', dot: '568253' }],
    ['MC277621', { kind: 'docket', docket: 'MC277621' }],
    ['mc-277621', { kind: 'docket', docket: 'MC277621' }],
    ['MC 0277621', { kind: 'docket', docket: 'MC277621' }],
    ['MX12', { kind: 'docket', docket: 'MX12' }],
    ['ff#99', { kind: 'docket', docket: 'FF99' }],
  ])('reads %s', (input, expected) => {
    expect(identifierOf(input)).toMatchObject({ input, ...expected });
  });

  it.each(['', 'XX123', 'MC', '0', '123456789', 'hello', 'MC-', '12a', 'MC1234567890'])(
    'refuses %j',
    (input) => {
      expect(identifierOf(input)).toBeUndefined();
      expect(classifyEntry(input).kind).toBe('invalid');
    },
  );
});

describe('splitIdentifiers', () => {
  it('splits on lines, commas, semicolons, tabs and wide gaps, keeping "MC 277621" whole', () => {
    expect(splitIdentifiers('568253\r\nMC 277621, FF99;\t2214589   USDOT 1\n\n')).toEqual([
      '568253',
      'MC 277621',
      'FF99',
      '2214589',
      'USDOT 1',
    ]);
  });

  it('splits a line of bare numbers on single spaces', () => {
    expect(splitIdentifiers('568253 2214589 4418207')).toEqual(['568253', '2214589', '4418207']);
  });
});

describe('checkIdentifiers', () => {
  it('keeps distinct identifiers in order and reports repeats of the same canonical key', () => {
    const checked = checkIdentifiers(['568253', 'MC277621', 'USDOT 568253', 'mc-277621', '7']);
    expect(checked.valid.map((identifier) => identifier.key)).toEqual([
      'dot:568253',
      'docket:MC277621',
      'dot:7',
    ]);
    expect(checked.rejected).toEqual([
      expect.objectContaining({ input: 'USDOT 568253', position: 3, reason: 'duplicate' }),
      expect.objectContaining({ input: 'mc-277621', position: 4, reason: 'duplicate' }),
    ]);
    expect(checked.rejected[0]?.message).toContain('entry 1');
  });

  it('reports junk and overlong entries with the reason, and a profile id repeats its DOT', () => {
    const checked = checkIdentifiers(['hello', 'x'.repeat(101), '568253-MC277621', '568253']);
    expect(checked.rejected.map((entry) => entry.reason)).toEqual([
      'invalid',
      'too_long',
      'duplicate',
    ]);
    expect(checked.rejected[0]?.message).toMatch(/USDOT number or docket/);
    expect(checked.valid).toHaveLength(1);
  });
});
