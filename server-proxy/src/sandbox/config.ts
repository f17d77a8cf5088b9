/**
 * The sandbox's environment, read with one zod schema (a schema per variable, built with
 * http/env.ts): one ConfigError lists every problem. docs/sandbox.md's Configuration table documents
 * every variable of SANDBOX_ENV_VARIABLES (config.test.ts checks that it names exactly these).
 */
import { z } from 'zod';
import { LIVE_KEY_PREFIX, SANDBOX_KEY_PREFIX } from '../../../src/lib/service/endpoints.ts';
import { commaList, oneOf, text, variable, wholeNumber } from '../http/env.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_SEED = 20_261_122;
export const DEFAULT_POPULATION = 5000;
const MAX_POPULATION = 2_000_000;

export interface SandboxConfig {
  host: string;
  port: number;
  apiKeys: string[];
  dataDir: string;
  seed: number;
  population: number;
  rateLimits: 'off' | 'live';
  logLevel: LogLevel;
}

/** Thrown with every problem of the environment at once. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid sandbox configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

/**
 * SANDBOX_API_KEYS: comma-separated sk_test_ keys. Unlike the other variables, set but empty is a
 * problem (no key would be accepted), so only an unset variable means the default key.
 */
const apiKeys = z
  .string()
  .default('sk_test_sandbox')
  .transform((raw, ctx) => {
    const keys = commaList(raw);
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (keys.length === 0) problem('SANDBOX_API_KEYS must list at least one key');
    for (const [index, key] of keys.entries()) {
      if (key.startsWith(LIVE_KEY_PREFIX)) {
        problem(
          `SANDBOX_API_KEYS entry ${index + 1} is a live key; the sandbox only takes sk_test_ keys`,
        );
      } else if (!key.startsWith(SANDBOX_KEY_PREFIX) || !/^[\x21-\x7e]+$/.test(key)) {
        problem(
          `SANDBOX_API_KEYS entry ${index + 1} must start with ${SANDBOX_KEY_PREFIX} and have no spaces`,
        );
      }
    }
    return keys;
  });

/** Every variable the sandbox reads, with its schema. */
const VARIABLES = {
  SANDBOX_HOST: variable(
    z.string().regex(/^[A-Za-z0-9.:[\]-]+$/, {
      error: (found) => `SANDBOX_HOST is not a host name or address: "${String(found.input)}"`,
    }),
    '127.0.0.1',
  ),
  SANDBOX_PORT: wholeNumber('SANDBOX_PORT', 8788, 0, 65_535),
  SANDBOX_API_KEYS: apiKeys,
  DATA_DIR: text('./data'),
  SANDBOX_SEED: wholeNumber('SANDBOX_SEED', DEFAULT_SEED, 0, 2 ** 32 - 1),
  SANDBOX_POPULATION: wholeNumber('SANDBOX_POPULATION', DEFAULT_POPULATION, 0, MAX_POPULATION),
  SANDBOX_RATE_LIMITS: variable(
    z.enum(['off', 'live'], {
      error: (found) => `SANDBOX_RATE_LIMITS must be "live" or "off", got "${String(found.input)}"`,
    }),
    'off',
  ),
  SANDBOX_LOG_LEVEL: oneOf('SANDBOX_LOG_LEVEL', LOG_LEVELS, 'info'),
};

/** The names of every variable the sandbox reads (the docs' table is checked against it). */
export const SANDBOX_ENV_VARIABLES = Object.keys(VARIABLES) as (keyof typeof VARIABLES)[];

const SANDBOX_ENV_SCHEMA = z.object(VARIABLES).transform((s): SandboxConfig => ({
  host: s.SANDBOX_HOST,
  port: s.SANDBOX_PORT,
  apiKeys: s.SANDBOX_API_KEYS,
  dataDir: s.DATA_DIR,
  seed: s.SANDBOX_SEED,
  population: s.SANDBOX_POPULATION,
  rateLimits: s.SANDBOX_RATE_LIMITS,
  logLevel: s.SANDBOX_LOG_LEVEL,
}));

/** Read and validate the sandbox environment; throws one ConfigError listing every problem. */
export function loadConfig(env: Env): SandboxConfig {
  const parsed = SANDBOX_ENV_SCHEMA.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((found) => found.message));
  return parsed.data;
}
