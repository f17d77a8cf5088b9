import { isEndpoint, type Endpoint } from '../../../lib/service/endpoints.ts';

/** How each endpoint of the contract's table reads on the Usage page and in its chart. */
const ENDPOINT_LABELS: Readonly<Record<Endpoint, string>> = {
  profile: 'Full profile',
  'profile-lite': 'Profile lite',
  'profile-fmcsa': 'FMCSA profile',
  autocomplete: 'Autocomplete',
  'monitoring/add': 'Monitoring: add',
  'monitoring/remove': 'Monitoring: remove',
  'monitoring/list': 'Monitoring: list',
};

/** The label of an endpoint; an endpoint this SPA does not know yet reads as its own name. */
export function endpointLabel(endpoint: string): string {
  return isEndpoint(endpoint) ? ENDPOINT_LABELS[endpoint] : endpoint;
}
