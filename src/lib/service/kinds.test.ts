import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readKind, readKindBySchema, type Kind } from './kinds.ts';

/** The kinds readKind answers with a hand check before falling back to the zod schema. */
const CHECKED_KINDS: Kind[] = [
  'text',
  'id',
  'count',
  'dollars',
  'rate',
  'year',
  'flag',
  'date',
  'timestamp',
];
const KINDS: Kind[] = [...CHECKED_KINDS, 'tri', 'point', 'location', 'json'];

/** Values around every rule: blanks, flag words, numbers in text, dates and times, odd shapes. */
const EDGE_VALUES: unknown[] = [
  undefined,
  null,
  '',
  '  ',
  true,
  false,
  'Y',
  'n',
  ' yes ',
  'T',
  'garbage',
  1,
  0,
  -0,
  2,
  1.5,
  NaN,
  Infinity,
  -Infinity,
  2 ** 53,
  2 ** 53 - 1,
  -(2 ** 53),
  1e21,
  '1',
  '0',
  ' 42 ',
  '1,000',
  '$1,000,000',
  '$ 12.50',
  '42abc',
  '0123',
  '1e3',
  'NaN',
  'Infinity',
  '-5',
  '2026',
  ' 2026 ',
  '20260912',
  '2026-09-12',
  ' 2026-09-12 ',
  '2026-9-12',
  '20261399',
  '2026-13-01',
  '0000-01-01',
  '2026-02-31',
  20260912,
  2026.5,
  '2026-09-12T12:00:00Z',
  '2026-09-12 12:00',
  '2026-09-12T12:00:00.123+02:00',
  '2026-09-12T12:00:00+0200',
  '2026-09-12T25:61',
  'Sep 12 2026',
  [],
  [1],
  ['a'],
  {},
  { lat: 1, lon: '2' },
  { lat: 'x' },
];

const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.double(),
  fc.stringMatching(/^\s?\$?[\d,]{0,9}(\.\d{0,3})?\s?$/),
  fc.stringMatching(/^\d{4}-?\d{2}-?\d{2}([T ]\d{2}:\d{2}(:\d{2})?Z?)?$/),
  fc.constantFrom('y', 'N', 'true', 'FALSE', ' t ', 'f', 'no', 'yes', '1', '0'),
);

/** Same acceptance, same value (telling -0 from 0), same message. */
function expectSameAsSchema(kind: Kind, value: unknown): void {
  const fast = readKind(kind, value);
  const schema = readKindBySchema(kind, value);
  expect(fast).toStrictEqual(schema);
  if (fast.ok && schema.ok && typeof fast.value === 'number')
    expect(Object.is(fast.value, schema.value)).toBe(true);
}

describe('readKind hand checks', () => {
  it('answer exactly as the zod schemas on edge values', () => {
    for (const kind of KINDS) for (const value of EDGE_VALUES) expectSameAsSchema(kind, value);
  });

  it('answer exactly as the zod schemas on generated values', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), anyValue, (kind, value) => {
        expectSameAsSchema(kind, value);
      }),
      { numRuns: 3000 },
    );
  });

  it('leave rejections, and their messages, to the schemas', () => {
    expect(readKind('flag', 'maybe')).toEqual({
      ok: false,
      message: 'Invalid input: expected boolean, received string (got "maybe")',
    });
    expect(readKind('date', 'Sep 12 2026')).toEqual(readKindBySchema('date', 'Sep 12 2026'));
    expect(readKind('date', 'Sep 12 2026').ok).toBe(false);
    expect(readKind('year', 2026.5).ok).toBe(false);
    expect(readKind('count', '42abc').ok).toBe(false);
  });
});
