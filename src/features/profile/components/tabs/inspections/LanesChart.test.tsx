import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LanesChart } from './LanesChart.tsx';

afterEach(cleanup);

const LANES = [
  { state: 'TX', inspections: 1200 },
  { state: 'OK', inspections: 300 },
  { state: 'NM', inspections: 0 },
];

describe('LanesChart', () => {
  it('draws one bar per state, sized against the busiest one', () => {
    render(<LanesChart lanes={LANES} computed={false} />);
    const heights = screen.getAllByTestId('lane-bar').map((bar) => bar.style.height);
    expect(heights).toEqual(['80%', '20%', '0%']);
  });

  it('gives the same numbers as a table and says where they come from', () => {
    render(<LanesChart lanes={LANES} computed />);
    const rows = within(screen.getByRole('table', { name: 'Inspections per state' })).getAllByRole(
      'row',
    );
    expect(rows.slice(1).map((row) => row.textContent)).toEqual(['TX1,200', 'OK300', 'NM0']);
    expect(screen.getByText(/Counted from the inspection history/)).toBeTruthy();
  });
});
