import type { MonitoringModule, SandboxContext } from '../context.ts';
import type { WireProfile } from '../data/types.ts';

/** What the service routes need: the context and the monitoring module (for overrides). */
export interface ServiceDeps {
  ctx: SandboxContext;
  monitoring: MonitoringModule;
}

/** The profile of `dot` as served right now: generated data with monitoring overrides merged. */
export function servedProfile(deps: ServiceDeps, dot: string): WireProfile | undefined {
  const profile = deps.ctx.dataset.getProfile(dot);
  return profile && deps.monitoring.applyOverrides(dot, profile);
}

/** Active USDOT registration and not out of service. */
export function isOperating(profile: WireProfile): boolean {
  const status = String(profile.usdot_status ?? '').toUpperCase();
  const oos = profile.out_of_service_flag;
  return status === 'ACTIVE' && oos !== true && oos !== 'true' && oos !== 'Y';
}
