import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ScrollArea } from './ScrollHint.tsx';

/** jsdom does no layout: the scroller's sizes and position are set by hand. */
function size(element: HTMLElement, scrollWidth: number, clientWidth: number) {
  Object.defineProperty(element, 'scrollWidth', { configurable: true, value: scrollWidth });
  Object.defineProperty(element, 'clientWidth', { configurable: true, value: clientWidth });
}

function scrollTo(element: HTMLElement, left: number) {
  element.scrollLeft = left;
  fireEvent.scroll(element);
}

afterEach(cleanup);

const hintOf = (element: HTMLElement) => element.parentElement?.getAttribute('data-scroll-hint');

describe('ScrollArea', () => {
  it('marks which edges have more content, following the scroll position', () => {
    render(
      <ScrollArea data-testid="scroller">
        <table>
          <tbody>
            <tr>
              <td>wide</td>
            </tr>
          </tbody>
        </table>
      </ScrollArea>,
    );
    const scroller = screen.getByTestId('scroller');
    expect(hintOf(scroller)).toBe('none');

    size(scroller, 600, 200);
    scrollTo(scroller, 0);
    expect(hintOf(scroller)).toBe('end');
    scrollTo(scroller, 150);
    expect(hintOf(scroller)).toBe('both');
    scrollTo(scroller, 400);
    expect(hintOf(scroller)).toBe('start');

    // the window grows wide enough: nothing hidden, no fade
    size(scroller, 600, 600);
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    expect(hintOf(scroller)).toBe('none');
  });

  it('draws a fade only on an edge with more content', () => {
    render(<ScrollArea data-testid="scroller">content</ScrollArea>);
    const scroller = screen.getByTestId('scroller');
    size(scroller, 500, 300);
    scrollTo(scroller, 0);
    const [start, end] = [...scroller.parentElement!.querySelectorAll('[aria-hidden="true"]')];
    expect(start?.classList.contains('opacity-0')).toBe(true);
    expect(end?.classList.contains('opacity-100')).toBe(true);
  });
});
