import { describe, expect, it } from 'vitest';
import { authenticate, maskKey } from './auth.ts';
import { SandboxError } from './errors.ts';

const accepted = new Set(['sk_test_sandbox']);

function codeOf(headers: Record<string, string>): string {
  try {
    authenticate(headers, accepted);
  } catch (err) {
    if (err instanceof SandboxError) return `${err.status} ${err.code}`;
    throw err;
  }
  return 'accepted';
}

describe('authenticate', () => {
  it('accepts a sandbox key as Bearer or x-api-key', () => {
    expect(authenticate({ authorization: 'Bearer sk_test_sandbox' }, accepted)).toBe(
      'sk_test_sandbox',
    );
    expect(authenticate({ 'x-api-key': 'sk_test_sandbox' }, accepted)).toBe('sk_test_sandbox');
    expect(
      authenticate(
        { authorization: 'bearer sk_test_sandbox', 'x-api-key': 'sk_test_sandbox' },
        accepted,
      ),
    ).toBe('sk_test_sandbox');
  });

  it.each([
    [{}, '401 missing_api_key'],
    [{ authorization: 'Basic abc' }, '401 invalid_authorization_header'],
    [{ authorization: 'Bearer' }, '401 invalid_authorization_header'],
    [{ authorization: 'Bearer sk_live_0123456789abcdef' }, '401 live_key_rejected'],
    [{ 'x-api-key': 'sk_test_wrong' }, '401 invalid_api_key'],
    [
      { authorization: 'Bearer sk_test_sandbox', 'x-api-key': 'sk_test_other' },
      '401 conflicting_api_keys',
    ],
  ])('%j -> %s', (headers, expected) => {
    expect(codeOf(headers)).toBe(expected);
  });

  it('never puts the full key in the hint', () => {
    const key = 'sk_live_0123456789abcdef';
    try {
      authenticate({ 'x-api-key': key }, accepted);
    } catch (err) {
      expect(err).toBeInstanceOf(SandboxError);
      expect(JSON.stringify((err as SandboxError).body())).not.toContain(key);
      return;
    }
    throw new Error('expected a 401');
  });
});

describe('maskKey', () => {
  it('keeps the prefix and the last four characters', () => {
    expect(maskKey('sk_test_0123456789abcdef')).toBe('sk_test_…cdef');
    expect(maskKey('short')).toBe('sho…');
  });
});
