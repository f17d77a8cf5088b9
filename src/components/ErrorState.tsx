/**
 * One readable state per kind of API failure: 400 (with the proxy's hint), 401 and a rejected key
 * (an operator problem), 402 (payment or budget), 404, 429 (a countdown from Retry-After, then an
 * automatic retry), 5xx, the server unreachable (a waiting state: the query client recovers by
 * itself when it answers again) and unreadable answers. Reusable by every feature.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { isUpstreamUnavailable } from '../lib/query-policy.ts';

export interface ErrorDescription {
  title: string;
  /** what happened, in the user's terms */
  detail: string;
  /** what to do about it; the proxy's hint when it sent one */
  advice: string | undefined;
  /** whether trying the same request again can help */
  retryable: boolean;
}

const KEY_REJECTED_CODE = 'upstream_key_rejected';
/** The proxy's 403 for a role below the route's (server-proxy/src/governance/roles.ts). */
const FORBIDDEN_ROLE_CODE = 'forbidden_role';
const BUDGET_CODE = 'budget_exceeded';
const NETWORK_TITLE = 'Cannot reach the server — retrying';

function describeClientError(error: ApiError): ErrorDescription {
  switch (error.status) {
    case 400:
      return {
        title: 'The request was not accepted',
        detail: error.message,
        advice: error.hint ?? 'Check the value you entered.',
        retryable: false,
      };
    case 401:
    case 403:
      // the proxy's role check (an API token page opened by a demoted admin): not the key
      if (error.code === FORBIDDEN_ROLE_CODE) {
        return {
          title: 'Your role does not allow this',
          detail: error.message,
          advice: error.hint,
          retryable: false,
        };
      }
      return keyProblem(error);
    case 402:
      return {
        title: error.code === BUDGET_CODE ? 'The spending budget is used up' : 'Payment required',
        detail: error.message,
        advice:
          error.hint ??
          'Nothing was billed. Ask the operator to raise the budget or settle the service account.',
        retryable: false,
      };
    case 404:
      return {
        title: 'Not found',
        detail: error.message,
        advice: error.hint,
        retryable: false,
      };
    default:
      return {
        title: `The request failed (${error.status})`,
        detail: error.message,
        advice: error.hint,
        retryable: false,
      };
  }
}

function keyProblem(error: ApiError): ErrorDescription {
  return {
    title: 'The data service rejected the API key',
    detail: error.message,
    advice:
      'This is not something you can fix from here: tell the operator to check the API key configured on the proxy.',
    retryable: false,
  };
}

/**
 * 503s of the dashboard's own server, not of the data service: its shared coordination (Redis, in
 * a team deployment) or its database cannot be reached. Both say when to ask again.
 */
const OWN_OUTAGES: Record<string, string> = {
  coordination_unavailable: "The dashboard's server cannot reach its shared coordination service",
  storage_unavailable: "The dashboard's server cannot reach its database",
};

/** A 503 of the dashboard's own server that says when to ask again (`OWN_OUTAGES`). */
function isOwnOutage(error: ApiError): boolean {
  return error.status === 503 && (error.code ?? '') in OWN_OUTAGES;
}

/** What a failure means and whether a retry can help; used by `ErrorState` and its tests. */
export function describeError(error: unknown): ErrorDescription {
  if (!(error instanceof ApiError)) {
    const detail = error instanceof Error ? error.message : String(error);
    return { title: 'Something went wrong', detail, advice: undefined, retryable: true };
  }
  if (error.kind === 'network' && error.status === 0) {
    // The query client polls the proxy meanwhile and refetches what failed when it answers
    // (query-policy.ts), so this is a waiting state rather than a dead end.
    return {
      title: NETWORK_TITLE,
      detail:
        'Nothing answered at the server’s address. What failed loads again by itself as soon as it answers.',
      advice: 'Check your connection and that the carrier-desk server is running.',
      retryable: true,
    };
  }
  if (error.kind === 'network') {
    return {
      title: 'The connection dropped',
      detail: error.message,
      advice: undefined,
      retryable: true,
    };
  }
  if (error.kind === 'invalid-body') {
    return {
      title: 'The answer could not be read',
      detail: error.message,
      advice: undefined,
      retryable: true,
    };
  }
  if (error.code === KEY_REJECTED_CODE) return keyProblem(error);
  if (error.status === 429) {
    return {
      title: 'Rate limited',
      detail: 'Too many requests to the data service for now.',
      advice: error.hint,
      retryable: true,
    };
  }
  const own = OWN_OUTAGES[error.code ?? ''];
  if (error.status === 503 && own) {
    return { title: own, detail: error.message, advice: error.hint, retryable: true };
  }
  if (error.status >= 500) {
    return {
      title: 'The data service is unavailable',
      detail: error.message,
      advice: error.hint ?? 'This is usually temporary. Try again in a moment.',
      retryable: true,
    };
  }
  return describeClientError(error);
}

/** Seconds left of a Retry-After wait, ticking once a second; calls `onDone` once at zero. */
function useCountdown(seconds: number | undefined, onDone: (() => void) | undefined) {
  const [left, setLeft] = useState(seconds);
  // The latest callback, so a new identity neither restarts the countdown nor fires it twice.
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  useEffect(() => {
    if (left === undefined) return;
    if (left <= 0) {
      done.current?.();
      return;
    }
    const timer = setTimeout(() => setLeft(left - 1), 1_000);
    return () => clearTimeout(timer);
  }, [left]);
  return left;
}

interface ErrorStateProps {
  error: unknown;
  /** what was being loaded, for the heading: "the carrier profile" */
  what?: string;
  /** try the request again; offered as a button when a retry can help, called after a 429 wait */
  onRetry?: () => void;
  /** the retry is under way */
  retrying?: boolean;
}

/**
 * Shows one failure. Give it a `key` that changes with the error (a new 429 restarts the countdown).
 */
export function ErrorState({ error, what, onRetry, retrying = false }: ErrorStateProps) {
  const description = describeError(error);
  // A 429, the proxy's open circuit breaker (503 upstream_unavailable) or an outage of its own
  // coordination or database says when to ask again: count down and retry by itself then, so the
  // view recovers when the service is back.
  const waits =
    error instanceof ApiError &&
    (error.status === 429 || isUpstreamUnavailable(error) || isOwnOutage(error));
  const wait = waits ? error.retryAfter : undefined;
  const left = useCountdown(wait, onRetry);
  const counting = left !== undefined && left > 0;
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50"
    >
      <p className="font-semibold">
        {description.title}
        {what ? <span className="font-normal"> — could not load {what}</span> : null}
      </p>
      <p className="mt-1 text-sm">{description.detail}</p>
      {description.advice ? <p className="mt-1 text-sm">{description.advice}</p> : null}
      {counting ? (
        <p className="mt-2 text-sm font-medium" aria-live="polite">
          Trying again automatically in {left} s.
        </p>
      ) : null}
      {retrying ? (
        <p className="mt-2 text-sm font-medium" role="status">
          Trying again…
        </p>
      ) : null}
      {description.retryable && onRetry && !retrying ? (
        <button
          type="button"
          onClick={onRetry}
          className="mt-3 rounded-md border border-red-400 bg-white px-3 py-1 text-sm font-medium text-red-950 hover:bg-red-100 dark:border-red-700 dark:bg-red-900 dark:text-red-50 dark:hover:bg-red-800"
        >
          {counting || description.title === NETWORK_TITLE ? 'Try now' : 'Try again'}
        </button>
      ) : null}
    </div>
  );
}
