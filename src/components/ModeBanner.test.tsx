import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ModeBanner } from './ModeBanner.tsx';

afterEach(cleanup);

describe('ModeBanner', () => {
  it('tells the user sandbox data is fictional and free', () => {
    render(<ModeBanner mode="sandbox" />);
    const banner = screen.getByRole('note', { name: 'Service mode' });
    expect(banner.textContent).toBe('Sandbox — fictional data, nothing is billed');
  });

  it('marks test mode', () => {
    render(<ModeBanner mode="test" />);
    const banner = screen.getByRole('note', { name: 'Service mode' });
    expect(banner.textContent).toMatch(/^Test mode — /);
    expect(banner.textContent).toContain('nothing is billed');
  });

  it.each(['live', undefined] as const)('renders nothing for mode %s', (mode) => {
    const { container } = render(<ModeBanner mode={mode} />);
    expect(container.childElementCount).toBe(0);
    expect(screen.queryByRole('note')).toBeNull();
  });
});
