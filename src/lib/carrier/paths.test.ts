import { describe, expect, it } from 'vitest';
import { carrierPath, isDotNumber } from './paths.ts';

describe('carrierPath', () => {
  it('opens the overview unless a tab is named', () => {
    expect(carrierPath('568253')).toBe('/carriers/568253/overview');
    expect(carrierPath(2214589, 'safety')).toBe('/carriers/2214589/safety');
  });

  it('adds an anchor on the tab, and none when it is empty', () => {
    expect(carrierPath('4418207', 'network', 'network-summary')).toBe(
      '/carriers/4418207/network#network-summary',
    );
    expect(carrierPath('4418207', 'contact', '')).toBe('/carriers/4418207/contact');
  });

  it('keeps a malformed DOT inside its path segment', () => {
    expect(carrierPath('12/../34')).toBe('/carriers/12%2F..%2F34/overview');
  });
});

describe('isDotNumber', () => {
  it('takes 1 to 8 digits and nothing else', () => {
    expect(['1', '568253', '12345678'].map(isDotNumber)).toEqual([true, true, true]);
    expect(['', '123456789', '56825a', ' 568253', '5682.3', '-1'].map(isDotNumber)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
