// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { sandboxProfile } from '../../../test/sandbox-profiles.node.ts';
import { parseProfile } from '../../../lib/service/index.ts';
import { defaultSettings, evaluate, type Policy } from '../../../lib/vetting/index.ts';
import {
  buildComparison,
  comparisonCsv,
  markDifferences,
  type CompareCell,
  type CompareColumn,
  type CompareRow,
} from './compare-model.ts';

const POLICY: Policy = { version: 1, settings: defaultSettings() };

function held(dot: string): CompareColumn {
  const profile = sandboxProfile(dot).parsed.value;
  return { dot, profile, verdict: evaluate(profile, POLICY) };
}

function rowOf(columns: CompareColumn[], id: string): CompareRow {
  const row = buildComparison(columns)
    .flatMap((section) => section.rows)
    .find((r) => r.id === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
}

describe('buildComparison', () => {
  const columns = [held('568253'), held('2214589'), held('3187452')];

  it('shows each carrier’s verdict under the default policy', () => {
    expect(rowOf(columns, 'verdict').cells.map((c) => c.text)).toEqual(['Pass', 'Review', 'Fail']);
    expect(rowOf(columns, 'verdict').cells.map((c) => c.mark)).toEqual([
      undefined,
      undefined,
      'Only this one',
    ]);
  });

  it('lists a rule only some carriers fail, marked where it fails', () => {
    const basics = rowOf(columns, 'rule-basic_alerts');
    expect(basics.differs).toBe(true);
    expect(basics.cells[0]?.text).toMatch(/^Pass/);
    expect(basics.cells[1]?.text).toMatch(/^Review/);
    expect(basics.cells[1]?.mark).toBeDefined();
    expect(basics.cells[0]?.mark).toBeUndefined();
  });

  it('marks the worst value of a measure', () => {
    const row = rowOf(columns, 'basic-unsafe_driving');
    const values = row.cells.map((c) => c.value);
    const known = values.filter((v): v is number => v !== undefined);
    expect(known.length).toBeGreaterThanOrEqual(2);
    const worst = Math.max(...known);
    row.cells.forEach((cell) => {
      expect(cell.mark === 'Worst').toBe(cell.value === worst);
    });
  });

  it('shows — for data the profile lacks, and nothing for a profile not fetched', () => {
    const bare = parseProfile({ dot_number: '1', legal_name: 'Bare Carrier' }).value;
    const cols: CompareColumn[] = [
      { dot: '1', profile: bare, verdict: evaluate(bare, POLICY) },
      { dot: '2', name: 'Not fetched' },
    ];
    const dba = rowOf(cols, 'dba');
    expect(dba.cells[0]).toMatchObject({ text: '—', state: 'missing' });
    expect(dba.cells[1]).toMatchObject({ text: '—', state: 'not-held' });
    expect(rowOf(cols, 'crashes').cells[0]).toMatchObject({ text: '—', state: 'missing' });
    // one carrier held: nothing to compare against, nothing marked
    expect(
      buildComparison(cols)
        .flatMap((s) => s.rows.flatMap((r) => r.cells))
        .some((c) => c.mark),
    ).toBe(false);
  });

  it('exports one line per attribute and one column per carrier', () => {
    const cols = [held('568253'), { dot: '999', name: 'Someone' }];
    const csv = comparisonCsv(buildComparison(cols), cols);
    const lines = csv.split('\r\n');
    const name = cols[0]?.profile?.legal_name ?? '';
    expect(lines[0]).toBe(`Section,Attribute,${name} (DOT 568253),Someone (DOT 999),Differs`);
    expect(lines.find((l) => l.startsWith('Verdict,Verdict,'))).toBe(
      'Verdict,Verdict,Pass,not fetched,no',
    );
    const rows = buildComparison(cols).flatMap((s) => s.rows).length;
    expect(lines).toHaveLength(rows + 1);
  });
});

describe('markDifferences', () => {
  const cell = (value: number | undefined, text = String(value)): CompareCell => ({
    text,
    value,
    state: value === undefined ? 'missing' : 'value',
  });

  it('marks nothing when the values are equal or only one is known', () => {
    const equal = [cell(3), cell(3)];
    expect(markDifferences(equal, 'higher')).toBe(false);
    expect(equal.some((c) => c.mark)).toBe(false);
    const lone = [cell(3), cell(undefined, '—')];
    expect(markDifferences(lone, 'higher')).toBe(true);
    expect(lone.some((c) => c.mark)).toBe(false);
  });

  it('marks every carrier sharing the worst value, lower or higher', () => {
    const cells = [cell(10), cell(2), cell(2)];
    markDifferences(cells, 'lower');
    expect(cells.map((c) => c.mark)).toEqual([undefined, 'Worst', 'Worst']);
  });

  it('marks a bad state that not every carrier shares', () => {
    const cells: CompareCell[] = [
      { text: 'Active', state: 'value', tone: 'good' },
      { text: 'Inactive', state: 'value', tone: 'bad' },
      { text: 'Active', state: 'value', tone: 'good' },
    ];
    markDifferences(cells);
    expect(cells.map((c) => c.mark)).toEqual([undefined, 'Only this one', undefined]);
  });
});
