// @vitest-environment node
import '../testing/install-dom.node.ts';
import { cleanup, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPhone } from '../../../../../lib/format.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import { daysBetween, recentChanges, referenceDate, timelines } from './model.ts';
import { renderTab, testedDots } from '../testing/render-tab.node.tsx';
import { ContactTab } from './Tab.tsx';

afterEach(cleanup);

interface RawEntry {
  key?: string;
  start_date?: string;
  current_flag?: boolean;
}

/** Kinds whose `<kind>_last_changed` lies within 90 days before the snapshot, computed from the wire. */
function expectedRecentKinds(raw: Record<string, unknown>): string[] {
  const snapshot = String(raw.snapshot_date);
  return ['name', 'email', 'phone', 'address'].filter((kind) => {
    const changed = raw[`${kind}_last_changed`];
    if (typeof changed !== 'string') return false;
    const days = (Date.parse(snapshot) - Date.parse(changed)) / 86_400_000;
    return days >= 0 && days <= 90;
  });
}

describe.each(testedDots(CURATED_DOTS))('ContactTab of DOT %s', (dot) => {
  const carrier = sandboxProfile(dot);
  const raw = carrier.raw as Record<string, unknown>;
  const p = carrier.parsed.value;

  it('shows the current telephone and the three addresses with deliverability', () => {
    const { getByRole, getAllByText } = renderTab(ContactTab, dot, carrier);
    const contacts = getByRole('region', { name: 'Current contacts' });
    if (typeof raw.telephone_number === 'string') {
      within(contacts).getAllByText(formatPhone(raw.telephone_number));
    }
    const addresses = getByRole('region', { name: 'Addresses' });
    expect(
      within(addresses)
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(['Physical address', 'Mailing address', 'Authority physical address']);
    if (raw.undeliverable_physical_address === false) getAllByText('Deliverable');
  });

  it('draws one timeline per key with every entry, current first then newest first', () => {
    const { queryByRole } = renderTab(ContactTab, dot, carrier);
    const entries = (raw.contact_history as RawEntry[] | undefined) ?? [];
    const keys = [...new Set(entries.map((e) => e.key))];
    for (const key of keys) {
      const group = timelines(p.contact_history).find((t) => t.key === key)!;
      const list = queryByRole('list', { name: `${group.label} history` });
      expect(list).not.toBeNull();
      expect(within(list!).getAllByRole('listitem')).toHaveLength(
        entries.filter((e) => e.key === key).length,
      );
      const order = group.entries;
      const firstFormer = order.findIndex((e) => !e.current_flag);
      if (firstFormer >= 0)
        expect(order.slice(firstFormer).every((e) => !e.current_flag)).toBe(true);
      for (let i = 1; i < order.length; i++) {
        if (Boolean(order[i - 1]!.current_flag) === Boolean(order[i]!.current_flag)) {
          expect((order[i - 1]!.start_date ?? '') >= (order[i]!.start_date ?? '')).toBe(true);
        }
      }
    }
  });

  it('warns in words exactly when a contact detail changed within 90 days of the snapshot', () => {
    const { queryByRole } = renderTab(ContactTab, dot, carrier);
    const expected = expectedRecentKinds(raw);
    const note = queryByRole('note', { name: 'Recent contact changes' });
    expect(note !== null).toBe(expected.length > 0);
    expect(recentChanges(p, referenceDate(p)).map((c) => c.kind)).toEqual(expected);
    if (note) expect(note.textContent).toMatch(/Warning: contact details changed within 90 days/);
  });
});

describe('ContactTab specifics', () => {
  it('flags the chameleon carrier: phone 21 days and e-mail 14 days before the snapshot', () => {
    const carrier = sandboxProfile('4418207');
    const { getByRole } = renderTab(ContactTab, '4418207', carrier);
    const note = getByRole('note', { name: 'Recent contact changes' });
    expect(note.textContent).toContain('Phone changed 21 days before the snapshot');
    expect(note.textContent).toContain('E-mail changed 14 days before the snapshot');
  });

  it('reads no recent change for the published example, whose contacts are old', () => {
    const carrier = sandboxProfile('568253');
    const { getByRole } = renderTab(ContactTab, '568253', carrier);
    expect(getByRole('region', { name: 'Recent changes' }).textContent).toMatch(
      /No name, phone, e-mail or address change/,
    );
  });

  it('counts days between calendar dates without time-zone drift', () => {
    expect(daysBetween('2026-10-26', '2026-11-16')).toBe(21);
    expect(daysBetween('2026-03-07', '2026-03-09')).toBe(2);
    expect(daysBetween('not a date', '2026-03-09')).toBeUndefined();
  });
});
