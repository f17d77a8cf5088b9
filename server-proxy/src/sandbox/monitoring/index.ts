import type { AppliedEvent, MonitoringModule, SandboxContext } from '../context.ts';
import { advanceScript } from './advance.ts';
import { billRollover } from './billing.ts';
import { mergeOverrides } from './overrides.ts';
import { ProfileDatesCache } from './profile-dates.ts';
import { registerMonitoringRoutes } from './routes.ts';
import { seedWatchlist } from './seed.ts';
import { dayNumber } from './dates.ts';
import { EVENTS_THROUGH, MonitoringStore, SEEDED_AT } from './store.ts';

/** The sandbox's monitoring: watchlist, change records and profile overrides in SQLite. */
export function createMonitoring(ctx: SandboxContext): MonitoringModule {
  const store = new MonitoringStore(ctx.db);

  const seed = (): void => {
    const now = ctx.clock.now();
    seedWatchlist(store, ctx.dataset, now);
    store.setMeta(EVENTS_THROUGH, String(dayNumber(now)));
    store.setMeta(SEEDED_AT, now.toISOString());
  };
  const dates = new ProfileDatesCache(ctx.dataset, store);
  const rollover = (): void => billRollover(store, ctx.ledger, ctx.clock.now());

  return {
    init() {
      ctx.db.transaction(() => {
        store.createTables();
        if (store.getMeta(SEEDED_AT) === undefined) seed();
      })();
    },
    async registerRoutes(app, { prefix }) {
      await registerMonitoringRoutes(app, prefix, {
        store,
        ledger: ctx.ledger,
        dataset: ctx.dataset,
        currentDates: (dot) => dates.current(dot),
        rollover,
        now: () => ctx.clock.now(),
        takeFault: (request) => ctx.faults?.take(request.url, request.method),
      });
    },
    applyOverrides(dot, profile) {
      return mergeOverrides(profile, store.overrides(dot));
    },
    reset() {
      ctx.db.transaction(() => {
        store.dropTables();
        store.createTables();
        seed();
      })();
    },
    advance(days): AppliedEvent[] {
      rollover();
      return advanceScript(store, ctx.dataset, ctx.clock.now(), days, (dot, profile) =>
        dates.remember(dot, profile),
      );
    },
  };
}
