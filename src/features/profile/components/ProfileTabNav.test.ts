import { describe, expect, it } from 'vitest';
import { badgeOrderClass } from './ProfileHeader.tsx';
import { centredScrollLeft } from './ProfileTabNav.tsx';

describe('the phone tab strip', () => {
  const strip = { clientWidth: 358, scrollWidth: 1100 };

  it('scrolls the current tab into the middle of the strip', () => {
    // "Safety" at 250–310 px: centred at 179 px of the 358 px strip
    expect(centredScrollLeft(strip, { offsetLeft: 250, offsetWidth: 60 })).toBe(101);
  });

  it('stays within the strip: the first tab at 0, the last at the end', () => {
    expect(centredScrollLeft(strip, { offsetLeft: 0, offsetWidth: 80 })).toBe(0);
    expect(centredScrollLeft(strip, { offsetLeft: 1050, offsetWidth: 50 })).toBe(742);
    expect(
      centredScrollLeft(
        { clientWidth: 1200, scrollWidth: 1100 },
        { offsetLeft: 500, offsetWidth: 80 },
      ),
    ).toBe(0);
  });
});

describe('the phone badge strip', () => {
  it('puts what needs attention first', () => {
    expect(badgeOrderClass('bad')).toBe('max-sm:order-first');
    expect(badgeOrderClass('warn')).toBe('max-sm:order-first');
    expect(badgeOrderClass('good')).toBe('');
    expect(badgeOrderClass('info')).toBe('');
  });
});
