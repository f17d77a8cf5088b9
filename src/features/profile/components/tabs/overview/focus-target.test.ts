import { afterEach, describe, expect, it } from 'vitest';
import { focusWhenShown } from './focus-target.ts';

afterEach(() => {
  document.body.replaceChildren();
});

describe('focusWhenShown', () => {
  it('focuses the section once it renders, making it focusable without a tab stop', async () => {
    focusWhenShown('network-summary');
    const section = document.createElement('section');
    section.id = 'network-summary';
    document.body.append(section);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.activeElement).toBe(section);
    expect(section.getAttribute('tabindex')).toBe('-1');
  });

  it('keeps a tab stop the section already has', async () => {
    const link = document.createElement('a');
    link.id = 'target';
    link.href = '#x';
    document.body.append(link);
    focusWhenShown('target');
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(document.activeElement).toBe(link);
    expect(link.hasAttribute('tabindex')).toBe(false);
  });
});
