/**
 * A request parameter (query or body) the service's rules refuse. Runtime-neutral on purpose: the
 * parameter rules in `rules/` throw it, and each server turns it into its own 400 answer
 * `{error, code, hint}` (see `toApiError` in server-proxy/src/http/api-error.ts).
 */
export class ParamError extends Error {
  readonly status = 400;
  readonly code: string;
  readonly hint: string;

  constructor(code: string, message: string, hint: string) {
    super(message);
    this.name = 'ParamError';
    this.code = code;
    this.hint = hint;
  }
}
