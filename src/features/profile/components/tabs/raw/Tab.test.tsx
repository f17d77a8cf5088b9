import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { parseProfile } from '../../../../../lib/service/index.ts';
import { RawTab } from './Tab.tsx';

afterEach(cleanup);

const RAW = {
  dot_number: '2214589',
  legal_name: 'IRONCLAD FREIGHT SYSTEMS INC',
  inspection_history: Array.from({ length: 120 }, (_, index) => ({
    report_number: `R${index}`,
    state: index === 7 ? 'WY' : 'OH',
  })),
  total_power_units: 'lots',
};

function renderRaw() {
  const parsed = parseProfile(RAW);
  return render(<RawTab dot="2214589" profile={parsed.value} raw={RAW} issues={parsed.issues} />);
}

describe('RawTab', () => {
  it('lists the parser issues', () => {
    renderRaw();
    expect(screen.getByText('total_power_units')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '1 value could not be read' })).toBeTruthy();
  });

  it('starts collapsed and renders children only on expand, paged', async () => {
    const user = userEvent.setup();
    renderRaw();
    expect(screen.queryByText(/legal_name/)).toBeNull();
    await user.click(screen.getByRole('button', { name: /root/ }));
    expect(screen.getByText(/legal_name/)).toBeTruthy();
    const history = screen.getByRole('button', { name: /inspection_history/ });
    expect(history.getAttribute('aria-expanded')).toBe('false');
    await user.click(history);
    expect(screen.queryAllByText(/report_number/)).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Show 50 more of 70' })).toBeTruthy();
  });

  it('expands and collapses all', async () => {
    const user = userEvent.setup();
    renderRaw();
    await user.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(screen.getAllByText(/report_number/)).toHaveLength(50);
    await user.click(screen.getByRole('button', { name: 'Collapse all' }));
    expect(screen.queryByText(/report_number/)).toBeNull();
  });

  it('searches keys and values and shows only the matches', async () => {
    const user = userEvent.setup();
    renderRaw();
    await user.type(screen.getByLabelText('Search keys and values'), 'wy');
    expect(await screen.findByText('1 match')).toBeTruthy();
    const match = screen.getByText('"WY"');
    expect(match).toBeTruthy();
    expect(screen.queryByText('"OH"')).toBeNull();
    expect(within(match.parentElement!).getByText(/state/)).toBeTruthy();
  });
});
