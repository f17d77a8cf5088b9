/** The full profile (`/v2/profile`): types, parsers and the loss audit. */
import { auditRecord, type AuditFindings } from './audit.ts';
import { singleItem, unwrapItems } from './envelope.ts';
import { PROFILE_ALIASES, PROFILE_SPEC } from './fields.ts';
import type {
  AUTHORITY_ENTRY,
  CONTACT_ENTRY,
  CRASH,
  CRASH_AGGREGATE,
  EQUIPMENT_SUMMARY,
  INSPECTED_UNIT,
  INSPECTION,
  INSURANCE_ENTRY,
  NETWORK_EQUIPMENT_CARRIER,
  RISK_FACTORS,
  VEHICLE,
  VIOLATION,
} from './nested.ts';
import { readRecord, type Parsed, type ParseIssue, type Shape } from './record.ts';

export type Profile = Shape<typeof PROFILE_SPEC>;
export type ContactEntry = Shape<typeof CONTACT_ENTRY>;
export type AuthorityEntry = Shape<typeof AUTHORITY_ENTRY>;
export type InsuranceEntry = Shape<typeof INSURANCE_ENTRY>;
export type EquipmentSummary = Shape<typeof EQUIPMENT_SUMMARY>;
export type Vehicle = Shape<typeof VEHICLE>;
export type NetworkEquipmentCarrier = Shape<typeof NETWORK_EQUIPMENT_CARRIER>;
export type RiskFactors = Shape<typeof RISK_FACTORS>;
export type Crash = Shape<typeof CRASH>;
export type CrashAggregate = Shape<typeof CRASH_AGGREGATE>;
export type Inspection = Shape<typeof INSPECTION>;
export type InspectedUnit = Shape<typeof INSPECTED_UNIT>;
export type Violation = Shape<typeof VIOLATION>;

/** `{items, total_count}` whatever the body's form. */
export interface ItemsPage<T> {
  items: T[];
  total_count: number;
}

function readProfile(raw: Record<string, unknown>, path: string, issues: ParseIssue[]): Profile {
  return readRecord(raw, PROFILE_SPEC, path, issues, PROFILE_ALIASES);
}

/** One profile from a bare profile object (or the first item of an envelope or array). */
export function parseProfile(body: unknown): Parsed<Profile> {
  const issues: ParseIssue[] = [];
  const item = singleItem(body, issues);
  const value = item ? readProfile(item.raw, item.path, issues) : { extra: {} };
  return { value, issues };
}

/** All profiles of a `/v2/profile` body: envelope, bare object or bare array. */
export function parseProfileResponse(body: unknown): Parsed<ItemsPage<Profile>> {
  const issues: ParseIssue[] = [];
  const { items, totalCount } = unwrapItems(body, issues);
  const profiles = items.map((item) => readProfile(item.raw, item.path, issues));
  return { value: { items: profiles, total_count: totalCount ?? profiles.length }, issues };
}

export interface ProfileAudit extends AuditFindings {
  issues: ParseIssue[];
}

/** Parse `raw` (any body form) and list what did not survive; used to prove "no loss". */
export function auditProfileParse(raw: unknown): ProfileAudit {
  const issues: ParseIssue[] = [];
  const findings: AuditFindings = { lost: [], unknown: [] };
  for (const item of unwrapItems(raw, issues).items) {
    const parsed = readProfile(item.raw, item.path, issues);
    auditRecord(item.raw, parsed, PROFILE_SPEC, item.path, findings, PROFILE_ALIASES);
  }
  return { ...findings, issues };
}
