/**
 * How a vetting route ends without its contract's answer (http/storage-unavailable.ts): `refuse`
 * sends an error, `unlessUnavailable` answers a refusing database with 503 `storage_unavailable`.
 */
import { storageGuard } from '../http/storage-unavailable.ts';

export { refuse } from '../http/storage-unavailable.ts';

export const unlessUnavailable = storageGuard('vetting');

export type Unless = typeof unlessUnavailable;
