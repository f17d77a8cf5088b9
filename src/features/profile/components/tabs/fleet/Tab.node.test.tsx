// @vitest-environment node
import '../testing/install-dom.node.ts';
import { cleanup, fireEvent, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCount } from '../../../../../lib/format.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import { hasLoads, loadMonths } from './model.ts';
import { renderTab, testedDots } from '../testing/render-tab.node.tsx';
import { FleetTab } from './Tab.tsx';

afterEach(cleanup);

function fact(container: HTMLElement, label: string): string {
  const term = [...container.querySelectorAll('dt')].find((dt) => dt.textContent === label);
  return term?.nextElementSibling?.textContent ?? '';
}

describe.each(testedDots(CURATED_DOTS))('FleetTab of DOT %s', (dot) => {
  const carrier = sandboxProfile(dot);
  const raw = carrier.raw as Record<string, unknown>;
  const p = carrier.parsed.value;

  it('shows fleet, driver and MCS-150 figures from the profile', () => {
    const { container } = renderTab(FleetTab, dot, carrier);
    expect(fact(container, 'Power units')).toBe(formatCount(Number(raw.total_power_units ?? NaN)));
    expect(fact(container, 'Drivers')).toBe(formatCount(Number(raw.total_drivers ?? NaN)));
    expect(fact(container, 'MCS-150 mileage')).toBe(formatCount(Number(raw.mcs150_mileage ?? NaN)));
    const drivers = within(container).getByRole('table', {
      name: 'Drivers by operation and radius',
    });
    const interstate = within(drivers).getByRole('row', { name: /^Interstate/ });
    expect(interstate.textContent).toContain(
      formatCount(Number(raw.num_drivers_interstate_total ?? NaN)),
    );
  });

  it('lists every operation class with the state the profile sends', () => {
    const { getByRole } = renderTab(FleetTab, dot, carrier);
    const list = getByRole('list', { name: 'Operation classes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(11);
    const forHire = within(list).getByText(/^Authorized for hire:/);
    const expected = raw.operation_class_authorized_for_hire;
    expect(forHire.textContent).toMatch(
      expected === true ? /Yes$/ : expected === false ? /No$/ : /not reported$/,
    );
  });

  it('tables the equipment history, 100 rows at a time', () => {
    const { queryByRole, getByText } = renderTab(FleetTab, dot, carrier);
    const vehicles = (raw.equipment_history as unknown[] | undefined) ?? [];
    const table = queryByRole('table', { name: /^Equipment history/ });
    if (!vehicles.length) {
      expect(table).toBeNull();
      getByText('No equipment on record.');
      return;
    }
    expect(table).not.toBeNull();
    const bodyRows = table!.querySelectorAll('tbody tr');
    expect(bodyRows).toHaveLength(Math.min(100, vehicles.length));
    const first = vehicles[0] as { vin?: string };
    if (first.vin) expect(bodyRows[0]?.textContent).toContain(first.vin);
  });

  it('shows loads only when the profile has them, one row per month', () => {
    const { queryByRole } = renderTab(FleetTab, dot, carrier);
    const section = queryByRole('region', { name: 'Loads' });
    expect(section !== null).toBe(hasLoads(p));
    if (!section) return;
    const months = loadMonths(p);
    const table = within(section).queryByRole('table', { name: 'Loads per month' });
    expect(table?.querySelectorAll('tbody tr').length ?? 0).toBe(months.length);
  });
});

describe('FleetTab specifics', () => {
  it('monthly loads of the chameleon carrier add up to its total', () => {
    const p = sandboxProfile('4418207').parsed.value;
    const months = loadMonths(p);
    expect(months.length).toBeGreaterThan(0);
    expect(months.reduce((sum, m) => sum + (m.total ?? 0), 0)).toBe(p.total_loads);
    expect(months.map((m) => m.month)).toEqual([...months.map((m) => m.month)].sort());
  });

  it('shows the live-shape radius of operation and other cargo', () => {
    const carrier = sandboxProfile('265752');
    const { container, getByText } = renderTab(FleetTab, '265752', carrier);
    expect(fact(container, 'Drivers within 100 mi (reported)')).toBe('78%');
    getByText(/other: SMALL PACKAGES/);
  });

  it('reveals more equipment rows on demand for a large fleet', () => {
    const carrier = sandboxProfile('3999999');
    const { getByRole } = renderTab(FleetTab, '3999999', carrier);
    const table = getByRole('table', { name: /^Equipment history/ });
    expect(table.querySelectorAll('tbody tr')).toHaveLength(100);
    fireEvent.click(getByRole('button', { name: 'Show 100 more' }));
    expect(table.querySelectorAll('tbody tr')).toHaveLength(200);
  });
});
