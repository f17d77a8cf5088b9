import type { FastifyInstance } from 'fastify';
import type { ResettableClock } from '../clock.ts';
import type { MonitoringModule } from '../context.ts';
import { badRequest } from '../errors.ts';
import { parseFaultRules, type FaultStore } from '../faults.ts';
import type { ResettableLedger } from '../ledger.ts';
import type { RateLimiter } from '../rate-limit.ts';

export interface AdminDeps {
  clock: ResettableClock;
  ledger: ResettableLedger;
  faults: FaultStore;
  monitoring: MonitoringModule;
  limiter?: RateLimiter;
}

const MAX_ADVANCE_DAYS = 3650;

function parseDays(body: unknown): number {
  const days = (body as { days?: unknown } | null | undefined)?.days;
  if (!Number.isInteger(days) || (days as number) < 1 || (days as number) > MAX_ADVANCE_DAYS) {
    throw badRequest(
      'invalid_days',
      `"days" must be a whole number from 1 to ${MAX_ADVANCE_DAYS}`,
      'Send e.g. {"days": 7} with Content-Type: application/json.',
    );
  }
  return days as number;
}

function clockState(clock: ResettableClock) {
  return { now: clock.now().toISOString(), offset_days: clock.offsetDays() };
}

/** The test-only endpoints under /__sandbox (a sandbox key is required like everywhere else). */
export function registerAdminRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.post('/__sandbox/reset', async () => {
    deps.ledger.reset();
    deps.clock.reset();
    deps.faults.clear();
    deps.limiter?.reset();
    deps.monitoring.reset();
    return { status: 'reset', ...clockState(deps.clock) };
  });

  app.post('/__sandbox/advance', async (request) => {
    const days = parseDays(request.body);
    deps.clock.advanceDays(days);
    const events = deps.monitoring.advance(days);
    return { days, ...clockState(deps.clock), events };
  });

  app.get('/__sandbox/clock', async () => clockState(deps.clock));

  app.get('/__sandbox/faults', async () => ({ rules: deps.faults.list() }));
  app.post('/__sandbox/faults', async (request) => ({
    rules: deps.faults.add(parseFaultRules(request.body)),
  }));
  app.delete('/__sandbox/faults', async () => {
    deps.faults.clear();
    return { rules: [] };
  });

  app.get('/__sandbox/ledger', async (request) => deps.ledger.summary(request.apiKey));
}
