import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BASIC_CATEGORIES } from '../../../../../lib/service/index.ts';
import { buildBasicRows } from './model.ts';
import { BasicChart } from './BasicChart.tsx';
import {
  CURATED_DOTS as TEST_DOTS,
  sandboxProfile as testProfile,
} from '../../../../../test/sandbox-profiles.node.ts';
import { SafetyTab } from './Tab.tsx';

function renderTab(dot: string) {
  const { raw, parsed } = testProfile(dot);
  return render(<SafetyTab dot={dot} profile={parsed.value} raw={raw} issues={parsed.issues} />);
}

afterEach(cleanup);

function basicTable() {
  return screen.getByRole('table', { name: 'BASIC percentiles against intervention thresholds' });
}

describe('SafetyTab against every sandbox carrier', () => {
  it('renders the BASIC table, markers and insufficient data for each carrier', () => {
    for (const dot of TEST_DOTS) {
      const view = renderTab(dot);
      const rows = buildBasicRows(testProfile(dot).parsed.value);
      const table = basicTable();
      for (const row of rows) {
        const tableRow = within(table).getByRole('row', { name: new RegExp(row.label) });
        if (row.insufficientData) expect(tableRow.textContent).toContain('Insufficient data');
        expect(tableRow.textContent?.includes('Alert')).toBe(row.alert || row.roadsideAlert);
      }
      expect(screen.getByRole('table', { name: /Out-of-service rates/ })).toBeTruthy();
      expect(screen.getByRole('table', { name: /Violations per BASIC/ })).toBeTruthy();
      expect(screen.getByRole('table', { name: /Industry benchmarks/ })).toBeTruthy();
      view.unmount();
    }
  });

  it('shows the alerts of IRONCLAD 2214589 in words', () => {
    renderTab('2214589');
    const table = basicTable();
    const unsafe = within(table).getByRole('row', { name: /Unsafe Driving/ });
    expect(unsafe.textContent).toContain('84%');
    expect(unsafe.textContent).toContain('Alert');
    expect(unsafe.textContent).toContain('Acute/critical');
    expect(within(table).getByRole('row', { name: /Hours-of-Service/ }).textContent).toContain(
      'Alert',
    );
    expect(screen.getByText(/3 alerts/)).toBeTruthy();
  });

  it('labels the service-computed BASICs and the ISS and rating', () => {
    renderTab('568253');
    const table = basicTable();
    const crash = within(table).getByRole('row', { name: /Crash Indicator/ });
    expect(crash.textContent).toContain('computed by the service');
    expect(screen.getByText('45')).toBeTruthy();
    expect(screen.getByText('Satisfactory (11 Jun 2019)')).toBeTruthy();
  });

  it('uses the passenger thresholds for LAKESHORE 1893346', () => {
    renderTab('1893346');
    const unsafe = within(basicTable()).getByRole('row', { name: /Unsafe Driving/ });
    expect(unsafe.textContent).toContain('50%');
    expect(screen.getByText(/defaults are those of a passenger carrier/)).toBeTruthy();
  });
});

describe('BasicChart', () => {
  it('draws a bar label per BASIC, alerts in words and insufficient data', () => {
    const rows = buildBasicRows(testProfile('2214589').parsed.value);
    const { container } = render(<BasicChart rows={rows} width={800} />);
    const labels = [...container.querySelectorAll('.recharts-label-list text')].map(
      (node) => node.textContent,
    );
    expect(labels).toHaveLength(7);
    expect(labels).toContain('84% ⚠ Alert, Roadside alert, Acute/critical');
    expect(labels).toContain('77% ⚠ Alert, Roadside alert');
    expect(labels.filter((text) => text === 'Insufficient data')).toHaveLength(2);
    const bars = container.querySelectorAll('.recharts-bar-rectangle');
    expect(bars).toHaveLength(BASIC_CATEGORIES.length);
  });

  it('keeps every bar text inside the chart on a phone (no text running off or into another)', () => {
    const rows = buildBasicRows(testProfile('2214589').parsed.value);
    const width = 358; // a 390 px screen less the page's padding
    const { container } = render(<BasicChart rows={rows} width={width} />);
    const labels = [...container.querySelectorAll<SVGTextElement>('.recharts-label-list text')];
    expect(labels).toHaveLength(7);
    for (const label of labels) {
      const text = label.textContent ?? '';
      const fontSize = Number(label.getAttribute('font-size'));
      // a generous average glyph width for the UI font (0.6 em)
      const right = Number(label.getAttribute('x')) + text.length * fontSize * 0.6;
      expect(right, text).toBeLessThanOrEqual(width);
    }
    const texts = labels.map((label) => label.textContent);
    expect(texts).toContain('84% ⚠');
    expect(screen.getByText('⚠ marks an alert; the table below names it.')).toBeTruthy();
  });
});
