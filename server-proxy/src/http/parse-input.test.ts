import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issue, parseInput, type InputWording } from './parse-input.ts';

const WORDING: InputWording = {
  hint: 'the hint',
  hints: { invalid_name: 'name hint' },
  codes: { id: 'invalid_item_id' },
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
};

const schema = z.strictObject(
  {
    name: z.string({ error: '"name" must be text' }),
    items: z
      .array(z.strictObject({ id: z.string({ error: '"id" must be text' }) }))
      .superRefine((items, ctx) => {
        if (items.length > 2) ctx.addIssue(issue('too_many', 'At most 2 items', 'Send fewer.'));
      })
      .optional(),
  },
  { error: 'The body must be a JSON object' },
);

function problem(value: unknown, wording = WORDING) {
  const parsed = parseInput(schema, value, wording);
  if (parsed.ok) throw new Error('expected a problem');
  return { status: parsed.error.status, ...parsed.error.body() };
}

describe('parseInput', () => {
  it('returns the parsed value', () => {
    expect(parseInput(schema, { name: 'a', items: [{ id: 'x' }] }, WORDING)).toEqual({
      ok: true,
      value: { name: 'a', items: [{ id: 'x' }] },
    });
  });

  it('words a member problem as invalid_<member>, with the hint of that code', () => {
    expect(problem({ name: 3 })).toEqual({
      status: 400,
      error: '"name" must be text',
      code: 'invalid_name',
      hint: 'name hint',
    });
  });

  it('reports an unknown member before the same object’s other problems', () => {
    expect(problem({ name: 3, extra: 1 })).toMatchObject({
      code: 'unknown_field',
      error: 'Unknown member "extra"',
    });
  });

  it('names the item of an array, and takes renamed codes', () => {
    expect(problem({ name: 'a', items: [{ id: 'x' }, { id: 1 }] })).toMatchObject({
      code: 'invalid_item_id',
      error: 'items[1]: "id" must be text',
      hint: 'the hint',
    });
    expect(problem({ name: 'a', items: [{ id: 'x', more: 1 }] })).toMatchObject({
      code: 'unknown_field',
      error: 'items[0]: unknown member "more"',
    });
  });

  it('keeps the code and hint of a custom issue', () => {
    const items = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(problem({ name: 'a', items })).toMatchObject({
      code: 'too_many',
      error: 'At most 2 items',
      hint: 'Send fewer.',
    });
  });

  it('words a problem with the whole input with rootCode', () => {
    expect(problem(null)).toMatchObject({ code: 'invalid_body' });
    expect(problem([], { ...WORDING, rootCode: 'invalid_query' })).toMatchObject({
      code: 'invalid_query',
      error: 'The body must be a JSON object',
    });
  });
});
