import { describe, expect, it } from 'vitest';
import { SandboxError } from './errors.ts';
import { FaultStore, malformedPayload, normalizeServicePath, parseFaultRules } from './faults.ts';

function ruleError(rules: unknown): string {
  try {
    parseFaultRules({ rules });
  } catch (err) {
    if (err instanceof SandboxError) return err.message;
    throw err;
  }
  return 'accepted';
}

describe('parseFaultRules', () => {
  it('normalises paths and methods and defaults count to 1', () => {
    expect(
      parseFaultRules({ rules: [{ path: '/api/v2/profile/', method: 'get', status: 503 }] }),
    ).toEqual([{ path: '/v2/profile', method: 'GET', status: 503, count: 1 }]);
  });

  it.each([
    [[{ path: '/v2/profile', status: 404 }], /status must be/],
    [[{ path: 'profile', status: 503 }], /path must be/],
    [[{ path: '/v2/profile', status: 503, count: 0 }], /count must be/],
    [[{ path: '/v2/profile', delay_ms: 99_999 }], /delay_ms/],
    [[{ path: '/v2/profile', status: 503, body: 'html' }], /body must be/],
    [[{ path: '/v2/profile', status: 207 }], /207 is only supported/],
    [[{ path: '/v2/profile' }], /does nothing/],
    [[{ path: '/v2/profile', status: 503, colour: 'red' }], /unknown field/],
    [['nope'], /must be an object/],
  ])('%j is rejected', (rules, message) => {
    expect(ruleError(rules)).toMatch(message);
  });

  it('rejects a body without rules', () => {
    expect(() => parseFaultRules({})).toThrow(/rules/);
    expect(() => parseFaultRules(null)).toThrow(/rules/);
  });
});

describe('FaultStore', () => {
  it('consumes a rule count times on either deployment, then forgets it', () => {
    const store = new FaultStore();
    store.add(parseFaultRules({ rules: [{ path: '/v2/profile', status: 429, count: 2 }] }));
    expect(store.takeImmediate('/api/v2/profile?dot_number=1', 'GET')?.status).toBe(429);
    expect(store.takeImmediate('/v2/profile', 'GET')?.count).toBe(0);
    expect(store.takeImmediate('/v2/profile', 'GET')).toBeUndefined();
    expect(store.list()).toEqual([]);
  });

  it('matches the method when given', () => {
    const store = new FaultStore();
    store.add(
      parseFaultRules({ rules: [{ path: '/v2/monitoring/list', method: 'POST', status: 500 }] }),
    );
    expect(store.takeImmediate('/v2/monitoring/list', 'GET')).toBeUndefined();
    expect(store.takeImmediate('/v2/monitoring/list', 'POST')?.status).toBe(500);
  });

  it('hands 207 rules only to take(), never to the immediate hook', () => {
    const store = new FaultStore();
    store.add(parseFaultRules({ rules: [{ path: '/v2/monitoring/add', status: 207, count: 2 }] }));
    expect(store.takeImmediate('/v2/monitoring/add', 'POST')).toBeUndefined();
    expect(store.take('/api/v2/monitoring/add', 'POST')).toEqual({ status: 207, remaining: 1 });
    expect(store.take('/v2/monitoring/add', 'POST')).toEqual({ status: 207, remaining: 0 });
    expect(store.take('/v2/monitoring/add', 'POST')).toBeUndefined();
  });

  it('refuses more than 100 armed rules', () => {
    const store = new FaultStore();
    const rule = { path: '/v2/profile', status: 503 };
    store.add(parseFaultRules({ rules: Array.from({ length: 100 }, () => rule) }));
    expect(() => store.add(parseFaultRules({ rules: [rule] }))).toThrow(/At most 100/);
  });
});

describe('helpers', () => {
  it('normalizeServicePath strips the legacy prefix, query and trailing slash', () => {
    expect(normalizeServicePath('/api/v2/autocomplete/?q=ab')).toBe('/v2/autocomplete');
    expect(normalizeServicePath('/')).toBe('/');
  });

  it('malformedPayload is never valid JSON for an object or array', () => {
    for (const payload of ['{}', '[]', '{"items":[],"total_count":0}', '[1,2,3]']) {
      expect(() => JSON.parse(malformedPayload(payload)) as unknown).toThrow();
    }
  });
});
