import { LIVE_KEY_PREFIX, SANDBOX_KEY_PREFIX } from './auth.ts';

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

function intSetting(
  env: Env,
  name: string,
  fallback: number,
  [min, max]: [number, number],
  problems: string[],
): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || value < min || value > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

function apiKeys(env: Env, problems: string[]): string[] {
  const raw = env.SANDBOX_API_KEYS ?? 'sk_test_sandbox';
  const keys = raw
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  if (keys.length === 0) problems.push('SANDBOX_API_KEYS must list at least one key');
  for (const [index, key] of keys.entries()) {
    if (key.startsWith(LIVE_KEY_PREFIX)) {
      problems.push(
        `SANDBOX_API_KEYS entry ${index + 1} is a live key; the sandbox only takes sk_test_ keys`,
      );
    } else if (!key.startsWith(SANDBOX_KEY_PREFIX) || !/^[\x21-\x7e]+$/.test(key)) {
      problems.push(
        `SANDBOX_API_KEYS entry ${index + 1} must start with ${SANDBOX_KEY_PREFIX} and have no spaces`,
      );
    }
  }
  return keys;
}

function rateLimits(env: Env, problems: string[]): 'off' | 'live' {
  const raw = env.SANDBOX_RATE_LIMITS?.trim() || 'off';
  if (raw === 'off' || raw === 'live') return raw;
  problems.push(`SANDBOX_RATE_LIMITS must be "live" or "off", got "${raw}"`);
  return 'off';
}

function logLevel(env: Env, problems: string[]): LogLevel {
  const raw = env.SANDBOX_LOG_LEVEL?.trim() || 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === raw);
  if (level === undefined)
    problems.push(`SANDBOX_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return level ?? 'info';
}

/** Read and validate the sandbox environment; throws one ConfigError listing every problem. */
export function loadConfig(env: Env): SandboxConfig {
  const problems: string[] = [];
  const host = env.SANDBOX_HOST?.trim() || '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host))
    problems.push(`SANDBOX_HOST is not a host name or address: "${host}"`);
  const config: SandboxConfig = {
    host,
    port: intSetting(env, 'SANDBOX_PORT', 8788, [0, 65_535], problems),
    apiKeys: apiKeys(env, problems),
    dataDir: env.DATA_DIR?.trim() || './data',
    seed: intSetting(env, 'SANDBOX_SEED', DEFAULT_SEED, [0, 2 ** 32 - 1], problems),
    population: intSetting(
      env,
      'SANDBOX_POPULATION',
      DEFAULT_POPULATION,
      [0, MAX_POPULATION],
      problems,
    ),
    rateLimits: rateLimits(env, problems),
    logLevel: logLevel(env, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
