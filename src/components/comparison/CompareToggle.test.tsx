import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { addToCompare, clearSelection, getSelection } from '../../lib/comparison/selection.ts';
import { CompareNavCount } from './CompareNavCount.tsx';
import { CompareToggle } from './CompareToggle.tsx';

afterEach(() => {
  act(() => clearSelection());
  window.localStorage.clear();
});

describe('CompareToggle', () => {
  it('adds and removes its carrier, and the navigation counts it', () => {
    render(
      <>
        <CompareToggle dot="0568253" name="Hansen" />
        <span data-testid="count">
          Compare
          <CompareNavCount />
        </span>
      </>,
    );
    const button = screen.getByRole('button', { name: 'Add to compare: Hansen' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByTestId('count').textContent).toBe('Compare');
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(getSelection()).toEqual([{ dot: '568253', name: 'Hansen' }]);
    expect(screen.getByTestId('count').textContent).toBe('Compare (1)');
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(getSelection()).toEqual([]);
  });

  it('refuses a fifth carrier and says why', () => {
    act(() => {
      for (const dot of ['1', '2', '3', '4']) addToCompare(dot);
    });
    render(<CompareToggle dot="5" />);
    fireEvent.click(screen.getByRole('button', { name: 'Add to compare: DOT 5' }));
    expect(screen.getByRole('status').textContent).toMatch(/holds 4 carriers/);
    expect(getSelection().map((entry) => entry.dot)).toEqual(['1', '2', '3', '4']);
  });
});
