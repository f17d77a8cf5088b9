/**
 * The SPA's one query client (docs/frontend.md): the defaults and retry rule of
 * src/lib/query-policy.ts, and, while it is mounted (QueryClientProvider), recovery from proxy
 * outages: when the proxy cannot be reached it polls `/healthz` and, once the proxy answers,
 * refetches the queries in use that failed with a network error or a 5xx.
 */
import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { apiGet } from '../lib/api-client.ts';
import { healthPollDelayMs, isTransient, QUERY_CLIENT_DEFAULTS } from '../lib/query-policy.ts';
import { isServerReachable, subscribeServerReachable } from '../lib/server-reachable.ts';

/** The proxy's liveness probe: open in every auth mode, never forwarded, never billed. */
const HEALTH_PATH = '/healthz';

/** Queries in use whose last attempt failed in a way a recovered server fixes. */
function refetchFailedQueries(client: QueryClient): Promise<void> {
  return client.refetchQueries({
    type: 'active',
    predicate: (query) => query.state.status === 'error' && isTransient(query.state.error),
  });
}

/**
 * While the proxy is unreachable, polls `/healthz` (the API client marks it reachable on any
 * answer); when it is reachable again, refetches the failed queries. Returns the stop function.
 */
function watchServer(client: QueryClient): () => void {
  let stopped = false;
  let polling = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
  async function pollUntilBack() {
    if (polling) return;
    polling = true;
    for (let attempt = 0; !stopped && !isServerReachable(); attempt += 1) {
      await sleep(healthPollDelayMs(attempt));
      if (stopped || isServerReachable()) break;
      await apiGet(HEALTH_PATH).catch(() => undefined);
    }
    polling = false;
  }
  const onChange = () => {
    if (stopped) return;
    if (isServerReachable()) void refetchFailedQueries(client);
    else void pollUntilBack();
  };
  const unsubscribe = subscribeServerReachable(onChange);
  if (!isServerReachable()) void pollUntilBack();
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
  };
}

/** A query client that, while mounted (QueryClientProvider), recovers from proxy outages. */
class RecoveringQueryClient extends QueryClient {
  #mounts = 0;
  #stopWatching: (() => void) | undefined;

  override mount(): void {
    super.mount();
    this.#mounts += 1;
    this.#stopWatching ??= watchServer(this);
  }

  override unmount(): void {
    super.unmount();
    this.#mounts -= 1;
    if (this.#mounts > 0) return;
    this.#stopWatching?.();
    this.#stopWatching = undefined;
  }
}

export function createQueryClient(): QueryClient {
  return new RecoveringQueryClient({
    defaultOptions: QUERY_CLIENT_DEFAULTS satisfies DefaultOptions,
  });
}
