import { describe, expect, it } from 'vitest';
import { NameIndex } from './name-index.ts';
import { Rng } from './prng.ts';
import { TextColumn } from './text-column.ts';

/** Rows of 1–2 values, long enough that the column spans several 1 MiB chunks. */
function sampleRows(count: number): string[][] {
  const rng = new Rng(17, 0, 0x7e57);
  const word = () => `W${rng.int(0, 999)}X${'Y'.repeat(rng.int(0, 40))}`;
  return Array.from({ length: count }, () => (rng.chance(0.3) ? [word(), word()] : [word()]));
}

type Mode = 'contains' | 'exact' | 'suffix';

/** What `find` must answer, from the plain strings. */
function naiveFind(rows: [number, string[]][], needle: string, mode: Mode): number[] {
  const hit = (v: string) =>
    mode === 'exact' ? v === needle : mode === 'suffix' ? v.endsWith(needle) : v.includes(needle);
  return rows.filter(([, values]) => values.some(hit)).map(([row]) => row);
}

describe('TextColumn', () => {
  const rows = sampleRows(100_000);
  const dense = TextColumn.builder(rows.length);
  rows.forEach((values, row) => dense.add(row, values));
  const column = dense.build();
  const indexed = rows.map((values, row): [number, string[]] => [row, values]);

  it('finds every value exactly when most segments sit at a chunk boundary', () => {
    const few = indexed.slice(0, 600);
    const small = TextColumn.builder(few.length, 64);
    for (const [row, values] of few) small.add(row, values);
    const built = small.build();
    expect(built.chunkCount).toBeGreaterThan(200);
    for (const [row, values] of few) {
      for (const [i, value] of values.entries()) {
        expect(built.find(value, 'exact')).toEqual(naiveFind(few, value, 'exact'));
        expect(built.find(value, 'exact')).toContain(row);
        expect(built.find(value.slice(1), 'suffix')).toContain(row);
        expect(built.value(row, i)).toBe(value);
      }
    }
  });

  it('finds values in every chunk, across chunk boundaries, as a plain scan would', () => {
    expect(column.chunkCount).toBeGreaterThan(2);
    for (const needle of ['W1X', 'W999X', 'X' + 'Y'.repeat(40), 'W5', '7XYY', 'NOPE']) {
      for (const mode of ['contains', 'exact', 'suffix'] as const) {
        expect(column.find(needle, mode), `${mode} ${needle}`).toEqual(
          naiveFind(indexed, needle, mode),
        );
      }
    }
    // Exact matches of the first and last rows (the first and last values of their chunks).
    for (const row of [0, rows.length - 1]) {
      const first = rows[row]?.[0] ?? '';
      expect(column.find(first, 'exact')).toContain(row);
    }
  });

  it('reads back every value of every row, and nothing past the last', () => {
    const text = (values: readonly (string | undefined)[]) => values.map(String).join('|');
    const read = rows.map((_, row) => text([0, 1, 2].map((i) => column.value(row, i))));
    expect(read).toEqual(rows.map((values) => text([values[0], values[1], undefined])));
  });

  it('keeps row ids of a sparse column', () => {
    const sparse = TextColumn.builder();
    const some = indexed.filter(([row]) => row % 7 === 3);
    for (const [row, values] of some) sparse.add(row, values);
    const built = sparse.build();
    expect(built.segments).toBe(some.length);
    for (const needle of ['W12X', 'W3X']) {
      expect(built.find(needle)).toEqual(naiveFind(some, needle, 'contains'));
    }
  });

  it('refuses a dense column filled out of order or incompletely', () => {
    const builder = TextColumn.builder(3);
    builder.add(0, ['A']);
    expect(() => builder.add(2, ['B'])).toThrow(/dense column/);
    expect(() => builder.build()).toThrow(/1 of 3 rows/);
  });
});

describe('NameIndex', () => {
  const rng = new Rng(5, 0, 0x1dd);
  const names = Array.from({ length: 5000 }, () =>
    rng.pick(['ALPHA', 'ALPINE', 'AL', 'BETA', 'BET', 'B & B', 'ZED']) + ` ${rng.int(0, 99)}`,
  );
  const index = new NameIndex(
    (entry) => names[entry] ?? '',
    names.length,
    (add) => names.forEach((_, entry) => add(entry)),
  );
  const naive = (prefix: string, limit: number) =>
    names
      .map((name, entry) => ({ name, entry }))
      .filter((n) => n.name.startsWith(prefix))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.entry - b.entry))
      .slice(0, limit)
      .map((n) => n.entry);

  it('answers prefixes shorter and longer than its bucket key in name order', () => {
    for (const prefix of ['A', 'AL', 'ALP', 'ALPI', 'ALPHA 1', 'B', 'B & B 9', 'BET', 'Z', 'Q']) {
      for (const limit of [1, 10, 5000]) {
        expect(index.prefix(prefix, limit), `${prefix} ${limit}`).toEqual(naive(prefix, limit));
      }
    }
  });

  it('refuses more entries than its capacity', () => {
    expect(
      () =>
        new NameIndex(
          () => 'X',
          1,
          (add) => {
            add(0);
            add(1);
          },
        ),
    ).toThrow(/more than 1/);
  });
});
