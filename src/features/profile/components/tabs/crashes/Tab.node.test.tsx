import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCount, formatDate } from '../../../../../lib/format.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import { aggregateSeries, crashRows, pointsFromCrashes } from './model.ts';
import { CrashesTab } from './Tab.tsx';

const ALL_DOTS = [...new Set([...CURATED_DOTS, '265752'])];

afterEach(cleanup);

function renderTab(dot: string) {
  const { raw, parsed } = sandboxProfile(dot);
  render(<CrashesTab dot={dot} profile={parsed.value} raw={raw} issues={parsed.issues} />);
  return parsed.value;
}

function fact(label: string): string | null | undefined {
  const totals = screen.getByRole('region', { name: 'Crash totals' });
  return within(totals).getByText(label).nextSibling?.textContent;
}

function bodyRows() {
  return within(screen.getByRole('table', { name: /^Crashes: / }))
    .getAllByRole('row')
    .filter((row) => row.hasAttribute('data-row-id'));
}

describe('CrashesTab against every sandbox carrier', () => {
  it.each(ALL_DOTS)('DOT %s: totals, history, trend table', (dot) => {
    const profile = renderTab(dot);
    expect(fact('Crashes')).toBe(formatCount(profile.crashes_total));
    expect(fact('Fatalities')).toBe(formatCount(profile.crash_fatalities));
    expect(fact('Injuries')).toBe(formatCount(profile.crash_injuries));
    expect(fact('Tow-away crashes')).toBe(formatCount(profile.crashes_tow_away));
    const history = profile.crash_history ?? [];
    if (history.length) {
      const table = screen.getByRole('table', { name: `Crashes: ${formatCount(history.length)}` });
      expect(table.getAttribute('data-row-count')).toBe(String(history.length));
      const newest = history
        .map((c) => c.report_date ?? '')
        .sort()
        .at(-1);
      expect(bodyRows()[0]?.textContent).toContain(formatDate(newest));
    } else {
      expect(screen.getByText(/sent no crash history/)).toBeTruthy();
    }
    const series = aggregateSeries(profile.crash_aggregates);
    if (series.length) {
      const trend = screen.getByRole('table', { name: 'Crashes per month' });
      expect(within(trend).getAllByRole('row')).toHaveLength(series.length + 1);
    } else {
      expect(screen.getByText('No monthly crash figures to show.')).toBeTruthy();
    }
  });
});

describe('CrashesTab of the live-shape carrier 265752', () => {
  it('draws its two crashes once each although crash_locations repeats them', () => {
    const profile = renderTab('265752');
    const points = pointsFromCrashes(crashRows(profile), profile.geo_points?.crash_locations);
    expect(profile.geo_points?.crash_locations).toHaveLength(2);
    expect(points.map((p) => p.id)).toEqual(['5194581', '5200976']);
    expect(points[0]?.label).toBe('Crash 24 Aug 2026, ARLINGTON, WY');
    expect(bodyRows()).toHaveLength(2);
  });

  it('shows the service totals beyond the trimmed history (123 crashes)', () => {
    renderTab('265752');
    expect(fact('Crashes')).toBe('123');
    expect(fact('Last crash')).toBe('24 Aug 2026');
  });
});

describe('CrashesTab details (IRONCLAD 2214589)', () => {
  it('expands a crash to its conditions and sorts by fatalities', async () => {
    const user = userEvent.setup();
    const profile = renderTab('2214589');
    const first = bodyRows()[0] as HTMLElement;
    await user.click(within(first).getByRole('button', { name: /Details of the crash/ }));
    expect(screen.getByText('Weather')).toBeTruthy();
    const table = screen.getByRole('table', { name: /^Crashes: / });
    const header = within(table).getByRole('columnheader', { name: /Fatalities/ });
    await user.click(within(header).getByRole('button'));
    const most = Math.max(...(profile.crash_history ?? []).map((c) => c.fatalities ?? 0));
    expect(most).toBeGreaterThan(0);
    expect(bodyRows()[0]?.querySelectorAll('td')[3]?.textContent).toBe(formatCount(most));
  });
});
