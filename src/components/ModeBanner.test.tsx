import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ModeBanner } from './ModeBanner.tsx';

afterEach(cleanup);

function bannerText(): string | null {
  return screen.getByRole('note', { name: 'Service mode' }).textContent;
}

describe('ModeBanner', () => {
  it('tells the user sandbox data is fictional and free', () => {
    render(<ModeBanner mode="sandbox" />);
    expect(bannerText()).toBe('Sandbox — fictional data, nothing is billed');
  });

  it('marks test mode as the service test key, not billed', () => {
    render(<ModeBanner mode="test" budgetUsd={50} />);
    expect(bannerText()).toBe(
      "Test mode — the service's test key: fixture carriers, nothing is billed",
    );
  });

  it('warns that live calls are billed and shows the monthly budget', () => {
    render(<ModeBanner mode="live" budgetUsd={250} />);
    expect(bannerText()).toBe(
      'Live — real carrier data, calls are billed to the service key (monthly budget $250.00)',
    );
  });

  it('says when live mode has no budget', () => {
    render(<ModeBanner mode="live" />);
    expect(bannerText()).toContain('calls are billed');
    expect(bannerText()).toContain('no monthly budget set');
  });

  it('renders nothing while the mode is unknown', () => {
    const { container } = render(<ModeBanner mode={undefined} />);
    expect(container.childElementCount).toBe(0);
    expect(screen.queryByRole('note')).toBeNull();
  });
});
