/** Plain helpers of the tender answer's view: rule names in words and the cost to confirm. */
import type { TenderPending, TenderRule } from '../../../lib/tender/contract.ts';

export const RULE_LABELS: Record<TenderRule, string> = {
  phone_match: 'Phone against the registered contact',
  email_match: 'E-mail against the registered contact',
  free_mail: 'Free-mail address',
  lookalike_domain: 'Look-alike domain',
  phone_other_carriers: 'Phone on other carriers',
  email_other_carriers: 'E-mail on other carriers',
  contact_changed: 'Recent change of the carrier’s contact',
  cargo_class: 'Cargo class carried',
  cargo_insurance: 'Cargo insurance against the load’s value',
  liability_insurance: 'Liability insurance',
  hazmat: 'Hazardous materials',
  equipment: 'Equipment',
  fleet: 'Fleet plausibility',
  verdict: 'The carrier’s verdict under the team’s policy',
};

/**
 * What running every pending search may cost at most, in whole cents rounded up: the
 * `max_cost_usd` the confirm button sends, so the rerun may spend exactly what the user saw.
 */
export function pendingTotal(pending: readonly Pick<TenderPending, 'cost_usd'>[]): number {
  const cents = pending.reduce((sum, item) => sum + item.cost_usd * 100, 0);
  return Math.ceil(Math.round(cents * 1000) / 1000) / 100;
}
