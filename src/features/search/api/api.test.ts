import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../lib/service/index.ts';
import { liteCostLabel } from '../components/LitePreview.tsx';
import { autocompleteTerm } from './get-autocomplete.ts';
import { readPricing } from './get-prices.ts';
import { readVinDetails } from './read-results.ts';
import { searchCostLabel } from '../lib/search-cost.ts';
import { resultsEndpoint } from './search-profiles.ts';

describe('autocompleteTerm', () => {
  it('canonicalises as the proxy does: trimmed, lower-case, single spaces', () => {
    expect(autocompleteTerm('  Hansen   &  ADKINS ')).toBe('hansen & adkins');
  });
});

describe('readVinDetails', () => {
  it('reads the decoded vehicle and its inspections from the extra keys, tolerantly', () => {
    const profile = parseProfile({
      dot_number: 568253,
      vin_decoded: { vin: '1XKYD49X5FX000000', make: 'KENWORTH', model_year: '2015', odd: 1 },
      vin_inspection_history: [
        { report_number: 'OR1', insp_date: '20261102', viol_total: '2', dot_number: 568253 },
      ],
    }).value;
    const details = readVinDetails(profile);
    expect(details?.vehicle).toMatchObject({
      vin: '1XKYD49X5FX000000',
      make: 'KENWORTH',
      model_year: 2015,
    });
    expect(details?.inspections).toHaveLength(1);
    expect(details?.inspections[0]).toMatchObject({ insp_date: '2026-11-02', viol_total: 2 });
    expect(details?.inspections[0]?.extra.dot_number).toBe(568253);
  });

  it('is undefined without the VIN keys', () => {
    expect(readVinDetails(parseProfile({ dot_number: '1' }).value)).toBeUndefined();
    expect(readVinDetails(undefined)).toBeUndefined();
  });
});

describe('pricing', () => {
  const body = {
    mode: 'live',
    prices: [
      { endpoint: 'profile-lite', usd: 0.5, unit: 'per unique DOT per calendar month' },
      { endpoint: 'bad', usd: 'x' },
    ],
  };

  it('reads the mode and prices; a malformed list is no list', () => {
    expect(readPricing(body)).toEqual({ billed: true, prices: {} });
    const good = { ...body, prices: [body.prices[0]] };
    expect(readPricing(good)).toEqual({
      billed: true,
      prices: { 'profile-lite': { usd: 0.5, unit: 'per unique DOT per calendar month' } },
    });
    expect(readPricing('nonsense')).toEqual({ billed: false, prices: {} });
  });

  it('labels the preview cost by mode', () => {
    const live = readPricing({
      mode: 'live',
      prices: [{ endpoint: 'profile-lite', usd: 0.75, unit: 'u' }],
    });
    expect(liteCostLabel(live)).toBe('Preview cost: $0.75 per new DOT per month');
    expect(liteCostLabel(readPricing({ mode: 'sandbox' }))).toBe(
      'Preview: not billed here (live: $0.50 per new DOT per month)',
    );
  });

  it('says what a search costs before it runs: lite profiles for lists, full for one carrier', () => {
    expect(resultsEndpoint('company')).toBe('profile-lite');
    expect(resultsEndpoint('dot_number')).toBe('profile');
    expect(resultsEndpoint('vin')).toBe('profile');
    const live = readPricing({
      mode: 'live',
      prices: [
        { endpoint: 'profile', usd: 3, unit: 'u' },
        { endpoint: 'profile-lite', usd: 0.5, unit: 'u' },
      ],
    });
    expect(searchCostLabel(live, 'company')).toBe(
      'Cost: up to $5.00 a page of 10 (lite profiles, $0.50 per new DOT per month).',
    );
    expect(searchCostLabel(live, 'dot_number')).toBe(
      'Cost: $3.00 per new DOT per month (the full profile).',
    );
    expect(searchCostLabel(readPricing({ mode: 'test' }), 'docket_number')).toBe(
      'Not billed here; on a live key $3.00 per new DOT per month for each carrier found (full profiles).',
    );
  });
});
