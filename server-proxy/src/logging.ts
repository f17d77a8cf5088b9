import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import { KeyScrubber, REDACTED } from './key-scrub.ts';

/** Anything pino can write lines to. */
export interface LogStream {
  write(line: string): unknown;
}

/** Header paths pino blanks out wherever a request or response is logged. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
];

/**
 * A stream that replaces every occurrence of the secrets, in any encoding a log line may carry them
 * (raw, JSON-escaped, percent-encoded, base64), before writing the line on.
 */
function scrubbingStream(target: LogStream, secrets: readonly string[]): LogStream {
  const scrubbers = secrets.map((secret) => new KeyScrubber(secret)).filter((s) => s.active);
  return {
    write(line: string) {
      let clean = line;
      for (const scrubber of scrubbers) clean = scrubber.text(clean);
      return target.write(clean);
    },
  };
}

/** Pino options: level, redacted credential headers, and the API key scrubbed from every line. */
export function loggerOptions(
  level: string,
  apiKey: string,
  stream: LogStream = process.stdout,
): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    stream: scrubbingStream(stream, [apiKey]),
  };
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keep a sane `x-request-id` from a fronting proxy, otherwise make one. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
}
