import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_POPULATION, loadConfig } from './config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    expect(loadConfig({})).toMatchObject({
      host: '127.0.0.1',
      port: 8788,
      apiKeys: ['sk_test_sandbox'],
      dataDir: './data',
      population: DEFAULT_POPULATION,
      rateLimits: 'off',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      SANDBOX_HOST: '0.0.0.0',
      SANDBOX_PORT: '9000',
      SANDBOX_API_KEYS: 'sk_test_a, sk_test_b',
      DATA_DIR: '/tmp/x',
      SANDBOX_SEED: '7',
      SANDBOX_POPULATION: '10',
      SANDBOX_RATE_LIMITS: 'live',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 9000,
      apiKeys: ['sk_test_a', 'sk_test_b'],
      dataDir: '/tmp/x',
      seed: 7,
      population: 10,
      rateLimits: 'live',
    });
  });

  it('lists every problem in one error', () => {
    const problems = problemsOf({
      SANDBOX_PORT: '70000',
      SANDBOX_API_KEYS: 'sk_live_abc,other',
      SANDBOX_POPULATION: 'many',
      SANDBOX_RATE_LIMITS: 'sometimes',
      SANDBOX_SEED: '-1',
    });
    expect(problems).toHaveLength(6);
    expect(problems.join('\n')).toMatch(/SANDBOX_PORT/);
    expect(problems.join('\n')).toMatch(/live key/);
    expect(problems.join('\n')).toMatch(/entry 2 must start with sk_test_/);
    expect(problems.join('\n')).not.toContain('sk_live_abc');
  });

  it('rejects an empty key list', () => {
    expect(problemsOf({ SANDBOX_API_KEYS: ' , ' })).toEqual([
      'SANDBOX_API_KEYS must list at least one key',
    ]);
  });
});
