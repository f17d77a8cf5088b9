import { describe, expect, it } from 'vitest';
import {
  ENDPOINT_NAMES,
  ENDPOINTS,
  endpointOfPath,
  isEndpoint,
  unitMills,
  unitUsd,
} from './endpoints.ts';

describe('the endpoint table', () => {
  it('names each endpoint by its own path', () => {
    for (const name of ENDPOINT_NAMES) {
      expect(ENDPOINTS[name].name).toBe(name);
      expect(ENDPOINTS[name].path).toBe(`/v2/${name}`);
    }
  });

  it('gives every billed endpoint a ledger kind and no free one', () => {
    for (const name of ENDPOINT_NAMES) {
      const { price, billingKind } = ENDPOINTS[name];
      expect(billingKind === undefined, name).toBe(price.kind === 'free');
    }
  });

  it('meters the billed endpoints and monitoring/remove, which ends a billed watch', () => {
    const metered = ENDPOINT_NAMES.filter((name) => ENDPOINTS[name].metered);
    expect(metered).toEqual([
      'profile',
      'profile-lite',
      'profile-fmcsa',
      'autocomplete',
      'monitoring/add',
      'monitoring/remove',
    ]);
  });

  it('caches only GET answers, and repeats a billed call only when the DOTs it bills are its own', () => {
    for (const name of ENDPOINT_NAMES) {
      const facts = ENDPOINTS[name];
      if (facts.cache !== 'none') expect(facts.method, name).toBe('GET');
      if (facts.price.kind === 'per-call' || facts.price.kind === 'per-match') {
        expect(facts.repeat, name).toBe('never');
      }
    }
  });

  it('folds the monitoring endpoints into one category', () => {
    expect(ENDPOINT_NAMES.filter((name) => ENDPOINTS[name].category === 'monitoring')).toEqual([
      'monitoring/add',
      'monitoring/remove',
      'monitoring/list',
    ]);
  });

  it('prices in mills and USD', () => {
    expect(unitMills('profile')).toBe(3000);
    expect(unitUsd('profile-lite')).toBe(0.5);
    expect(unitUsd('autocomplete')).toBe(0.003);
    expect(unitUsd('monitoring/list')).toBe(0);
  });
});

describe('endpointOfPath', () => {
  it.each([
    ['/v2/profile', 'profile'],
    ['/api/v2/profile-lite?dot_number=1', 'profile-lite'],
    ['/v2/monitoring/add/', 'monitoring/add'],
    ['http://127.0.0.1:9/api/v2/monitoring/list?page=2', 'monitoring/list'],
  ])('%s -> %s', (path, endpoint) => {
    expect(endpointOfPath(path)).toBe(endpoint);
  });

  it.each(['/v2/profiles', '/v2/monitoring', '/v1/profile', '/__sandbox/reset', ''])(
    '%j is no endpoint',
    (path) => {
      expect(endpointOfPath(path)).toBeUndefined();
    },
  );

  it('knows exactly the table’s names', () => {
    expect(isEndpoint('monitoring/remove')).toBe(true);
    expect(isEndpoint('monitoring')).toBe(false);
    expect(isEndpoint(undefined)).toBe(false);
  });
});
