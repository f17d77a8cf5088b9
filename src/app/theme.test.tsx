import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { installColorSchemeMedia } from '../test/match-media.ts';
import { renderApp } from '../test/render-app.tsx';
import { THEME_STORAGE_KEY } from './theme.ts';

let media: ReturnType<typeof installColorSchemeMedia> | undefined;

afterEach(() => {
  cleanup();
  media?.restore();
  media = undefined;
  window.localStorage.clear();
  document.documentElement.className = '';
  document.documentElement.style.colorScheme = '';
});

function toggle(): HTMLElement {
  return screen.getByRole('button', { name: 'Dark mode' });
}

function htmlIsDark(): boolean {
  return document.documentElement.classList.contains('dark');
}

describe('dark mode', () => {
  it('follows the system preference until the user chooses', () => {
    media = installColorSchemeMedia(true);
    renderApp('/search');
    expect(htmlIsDark()).toBe(true);
    expect(document.documentElement.style.colorScheme).toBe('dark');
    expect(toggle().getAttribute('aria-pressed')).toBe('true');

    act(() => media?.setDark(false));
    expect(htmlIsDark()).toBe(false);
    expect(toggle().getAttribute('aria-pressed')).toBe('false');
  });

  it('works without matchMedia (light by default)', () => {
    renderApp('/search');
    expect(htmlIsDark()).toBe(false);
    expect(toggle().getAttribute('aria-pressed')).toBe('false');
  });

  it('persists the choice across a reload and wins over the system', async () => {
    media = installColorSchemeMedia(false);
    const user = userEvent.setup();
    renderApp('/search');

    await user.click(toggle());
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(htmlIsDark()).toBe(true);
    expect(toggle().getAttribute('aria-pressed')).toBe('true');

    cleanup();
    document.documentElement.className = '';
    renderApp('/search');
    expect(htmlIsDark()).toBe(true);
    expect(toggle().getAttribute('aria-pressed')).toBe('true');

    act(() => media?.setDark(false));
    expect(htmlIsDark()).toBe(true);

    await user.click(toggle());
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(htmlIsDark()).toBe(false);
  });

  it('ignores a stored value it does not know', () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'sepia');
    media = installColorSchemeMedia(true);
    renderApp('/search');
    expect(htmlIsDark()).toBe(true);
  });

  it('is reachable and operable by keyboard', async () => {
    const user = userEvent.setup();
    renderApp('/search');
    toggle().focus();
    await user.keyboard('{Enter}');
    expect(htmlIsDark()).toBe(true);
    await user.keyboard(' ');
    expect(htmlIsDark()).toBe(false);
  });
});
