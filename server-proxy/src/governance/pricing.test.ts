import { describe, expect, it } from 'vitest';
import { ENDPOINTS, PRICE_RULES, SPEND_CATEGORIES, categoryOf, unitMills } from './pricing.ts';

describe('prices from the endpoint table', () => {
  it('prices every endpoint as published, in mills', () => {
    expect(ENDPOINTS.map((endpoint) => unitMills(endpoint))).toEqual([
      3000, 500, 100, 3, 500, 0, 0,
    ]);
    expect(PRICE_RULES['profile-fmcsa']).toEqual({ kind: 'per-match', mills: 100 });
    expect(PRICE_RULES['monitoring/list']).toEqual({ kind: 'free' });
  });

  it('reports the five usage categories in order, the monitoring endpoints as one', () => {
    expect(SPEND_CATEGORIES).toEqual([
      'profile',
      'profile-lite',
      'profile-fmcsa',
      'autocomplete',
      'monitoring',
    ]);
    expect(categoryOf('monitoring/remove')).toBe('monitoring');
    expect(categoryOf('profile-lite')).toBe('profile-lite');
  });
});
