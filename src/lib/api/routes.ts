/**
 * Every route contract of the API, one flat list: the OpenAPI document's tests check that each is
 * registered on the proxy and that every contract route the proxy has is here. Add a line per
 * contract (keep it a plain import list, grouped by area).
 */
import type { RouteContract } from './route-contract.ts';
import { createTokenRoute, listTokensRoute, revokeTokenRoute } from '../tokens/contract.ts';
import {
  auditRoute,
  estimateRoute,
  getConfigRoute,
  getSessionRoute,
  getUsageRoute,
  signInRoute,
  signOutRoute,
} from '../governance/contract.ts';
import { apiDocsRoute, openApiRoute } from './reference-contract.ts';
import {
  alertsOverviewRoute,
  createSubscriptionRoute,
  deliveriesRoute,
  pollRoute,
  removeSubscriptionRoute,
  resendRoute,
  testAlertRoute,
  updateSubscriptionRoute,
} from '../alerts/contract.ts';
import {
  cancelJobRoute,
  createJobRoute,
  getJobRoute,
  listJobsRoute,
  pauseJobRoute,
  resumeJobRoute,
  retryFailedJobRoute,
} from '../bulk/contract.ts';
import {
  createTenderCheckRoute,
  getTenderCheckRoute,
  listTenderChecksRoute,
} from '../tender/contract.ts';
import {
  chainCheckRoute,
  currentDecisionsRoute,
  decisionRoute,
  decisionsRoute,
  policyPreviewRoute,
  policyRoute,
  policyVersionRoute,
  policyVersionsRoute,
  publicKeyRoute,
  receiptRoute,
  recordDecisionRoute,
  revetDueRoute,
  savePolicyRoute,
  verdictRoute,
  verifyReceiptsRoute,
} from '../vetting/contract.ts';
import { profileSummaryRoute, profileViewRoute } from '../carrier/contract.ts';
import {
  heldNamesRoute,
  lastVisitRoute,
  monitoringBadgeRoute,
  monitoringViewRoute,
  nameLookupRoute,
  recordVisitRoute,
  triageLookupBodyRoute,
  triageLookupRoute,
  triagePutRoute,
  triageSummaryRoute,
} from '../monitoring/contract.ts';
import { resolveRoute } from '../watchlist/contract.ts';

export const API_CONTRACTS: readonly RouteContract[] = [
  // API tokens (src/lib/tokens/contract.ts)
  createTokenRoute,
  listTokensRoute,
  revokeTokenRoute,
  // the session and governance (src/lib/governance/contract.ts)
  getSessionRoute,
  signInRoute,
  signOutRoute,
  getConfigRoute,
  getUsageRoute,
  estimateRoute,
  auditRoute,
  // the API's reference (src/lib/api/reference-contract.ts)
  openApiRoute,
  apiDocsRoute,
  // tender checks (src/lib/tender/contract.ts)
  createTenderCheckRoute,
  listTenderChecksRoute,
  getTenderCheckRoute,
  // alerts (src/lib/alerts/contract.ts)
  alertsOverviewRoute,
  createSubscriptionRoute,
  updateSubscriptionRoute,
  removeSubscriptionRoute,
  pollRoute,
  deliveriesRoute,
  resendRoute,
  testAlertRoute,
  // bulk vetting (src/lib/bulk/contract.ts)
  createJobRoute,
  listJobsRoute,
  getJobRoute,
  pauseJobRoute,
  resumeJobRoute,
  cancelJobRoute,
  retryFailedJobRoute,
  // vetting: verdict, policy, decisions (src/lib/vetting/contract.ts)
  verdictRoute,
  policyRoute,
  policyVersionsRoute,
  policyVersionRoute,
  savePolicyRoute,
  policyPreviewRoute,
  recordDecisionRoute,
  decisionsRoute,
  currentDecisionsRoute,
  revetDueRoute,
  chainCheckRoute,
  verifyReceiptsRoute,
  publicKeyRoute,
  receiptRoute,
  decisionRoute,
  // monitoring: triage, names, the badge and the inbox's view (src/lib/monitoring/contract.ts)
  triageLookupRoute,
  triageLookupBodyRoute,
  triagePutRoute,
  heldNamesRoute,
  triageSummaryRoute,
  lastVisitRoute,
  recordVisitRoute,
  nameLookupRoute,
  monitoringBadgeRoute,
  monitoringViewRoute,
  // watch-list resolution (src/lib/watchlist/contract.ts)
  resolveRoute,
  // a carrier's profile cut by the proxy (src/lib/carrier/contract.ts)
  profileSummaryRoute,
  profileViewRoute,
];
