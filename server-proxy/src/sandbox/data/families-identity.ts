/** Wire families: identity, operation classes, authority, insurance. */
import { SNAPSHOT_DATE, ageInDays } from './calendar.ts';
import { AUTHORITY_KINDS, type Derived } from './derive.ts';
import type { AuthorityKind, CarrierModel, OperationClass } from './model.ts';
import { compact, count, idMaker, maxDate, type Fields } from './wire-helpers.ts';

const OPERATION_CLASSES: Record<OperationClass, string> = {
  authorized_for_hire: 'Authorized For Hire',
  exempt_for_hire: 'Exempt For Hire',
  private_property: 'Private Property',
  private_pass_business: 'Private Passengers (Business)',
  private_pass_non_business: 'Private Passengers (Non-Business)',
  migrant: 'Migrant',
  us_mail: 'U.S. Mail',
  federal_govt: 'Federal Government',
  state_govt: 'State Government',
  local_govt: 'Local Government',
  indian_nation: 'Indian Nation',
};

function docketOf(model: CarrierModel): string | undefined {
  return model.docket ? `${model.docket.prefix}${model.docket.number}` : undefined;
}

/** `<dot>-<docket>`; a carrier without a docket is identified by its DOT number alone. */
function docIdOf(model: CarrierModel): string {
  const docket = docketOf(model);
  return docket ? `${model.dot}-${docket}` : model.dot;
}

export function identityFields(model: CarrierModel): Fields {
  const docket = docketOf(model);
  const dockets = [docket, ...(model.extraDockets ?? [])].filter((d) => d !== undefined);
  return compact({
    doc_id: docIdOf(model),
    dot_number: model.dot,
    docket_prefix: model.docket?.prefix,
    docket_number: model.docket?.number,
    docket,
    icc_dockets: dockets.length > 0 ? dockets.join(',') : undefined,
    ein: model.ein,
    duns: model.duns,
    legal_name: model.legalName,
    dba_name: model.dbaName,
    dba_flag: model.dbaName !== undefined,
    entity_type_desc: model.entityType,
    carrier_operation_desc: model.operation,
    organization_type_desc: model.organization,
    usdot_status: model.usdotStatus,
    out_of_service_flag: model.outOfService,
    operation_classification_desc:
      model.operationClasses.map((c) => OPERATION_CLASSES[c]).join(', ') || undefined,
    added_date: model.addedDate,
    dot_age: count(ageInDays(model.addedDate)),
    snapshot_date: SNAPSHOT_DATE,
  });
}

export function operationFields(model: CarrierModel): Fields {
  const out: Fields = {};
  for (const key of Object.keys(OPERATION_CLASSES) as OperationClass[]) {
    out[`operation_class_${key}`] = model.operationClasses.includes(key);
  }
  const isPrivate = model.operationClasses.some((c) => c.startsWith('private'));
  const carries = model.entityType.includes('Carrier');
  return {
    ...out,
    private: isPrivate,
    enterprise: false,
    household_goods: model.householdGoods ?? false,
    passenger: model.passenger,
    property: carries && !model.passenger,
    hazardous_material: model.hazmat,
    smartway_flag: model.smartway ?? false,
    carbtru_flag: model.carbtru ?? false,
    phmsa_flag: model.phmsa ?? false,
  };
}

const AUTHORITY_TYPE_DESC: Record<AuthorityKind, [string, string]> = {
  common: ['Motor Property Common Carrier', 'Motor Passenger Common Carrier'],
  contract: ['Motor Property Contract Carrier', 'Motor Passenger Contract Carrier'],
  broker: ['Property Broker', 'Passenger Broker'],
};

function authorityPerKind(model: CarrierModel, d: Derived, kind: AuthorityKind): Fields {
  const state = d.authority[kind];
  const has = (list?: AuthorityKind[]) => list?.includes(kind) ?? false;
  const active = state.status === 'Active';
  return compact({
    [`authority_${kind}`]: state.status,
    [`authority_${kind}_pending`]: has(model.authority.pending),
    [`authority_${kind}_review`]: has(model.authority.review),
    [`authority_${kind}_revocation`]: has(model.authority.revocation),
    [`authority_age_${kind}`]: state.firstServed ? count(ageInDays(state.firstServed)) : undefined,
    [`authority_age_${kind}_active`]:
      active && state.lastServed ? count(ageInDays(state.lastServed)) : undefined,
    [`authority_start_${kind}`]: state.lastServed,
    [`authority_${kind}_last_revocation_date`]: state.lastRevoked,
  });
}

function indicatorAuthority(model: CarrierModel, d: Derived): boolean | null {
  if (!d.regulated) return null;
  const carrierActive = d.authority.common.status === 'Active' || d.authority.contract.status === 'Active';
  if (model.entityType.includes('Carrier')) return carrierActive;
  return d.authority.broker.status === 'Active';
}

export function authorityFields(model: CarrierModel, d: Derived): Fields {
  const nextId = idMaker(model.dot, 'authority');
  const lastRevocation = maxDate(d.revocations);
  const history = [...model.authority.grants]
    .sort((a, b) => (a.served < b.served ? 1 : -1))
    .map((g) =>
      compact({
        _id: nextId(),
        authority_type_desc: AUTHORITY_TYPE_DESC[g.kind][model.passenger ? 1 : 0],
        original_action_desc: g.action,
        original_served_date: g.served,
        dispensation_action_desc: g.dispensation?.action,
        dispensation_served_date: g.dispensation?.served,
      }),
    );
  return compact({
    ...Object.assign({}, ...AUTHORITY_KINDS.map((k) => authorityPerKind(model, d, k))),
    last_revocation_date: lastRevocation,
    total_revocations: count(d.revocations.length),
    days_since_last_revocation: lastRevocation ? count(ageInDays(lastRevocation)) : undefined,
    indicator_authority: indicatorAuthority(model, d),
    authority_history: history,
  });
}

function indicatorInsurance(model: CarrierModel, d: Derived): boolean | null {
  if (!d.regulated) return null;
  return d.onFile.BIPD >= model.required.bipd && d.onFile.SURETY >= model.required.bond;
}

export function insuranceFields(model: CarrierModel, d: Derived): Fields {
  const nextId = idMaker(model.dot, 'insurance');
  const regulated = d.regulated;
  const amount = (n: number, show: boolean) => (show ? count(n) : undefined);
  const history = [...model.policies]
    .sort((a, b) => (a.effective < b.effective ? 1 : -1))
    .map((p) =>
      compact({
        _id: nextId(),
        insurance_status: d.activePolicies.includes(p) ? 'A' : 'H',
        insurance_form_code: p.formCode,
        insurance_type_code: p.type,
        insurance_carrier: p.insurer,
        policy_number: p.number,
        effective_date: p.effective,
        cancel_method: p.cancel?.method,
        cancel_effective_date: p.cancel?.date,
        underlying_limit_amount: p.underlying === undefined ? undefined : count(p.underlying),
        minimum_coverage_amount: count(p.amount),
      }),
    );
  return compact({
    insurance_bipd_on_file: amount(d.onFile.BIPD, regulated || d.onFile.BIPD > 0),
    insurance_bipd_required: amount(model.required.bipd, regulated),
    insurance_cargo_on_file: amount(d.onFile.CARGO, d.onFile.CARGO > 0 || model.required.cargo > 0),
    insurance_cargo_required: amount(model.required.cargo, regulated),
    insurance_bond_on_file: amount(d.onFile.SURETY, d.onFile.SURETY > 0 || model.required.bond > 0),
    insurance_bond_required: amount(model.required.bond, regulated),
    indicator_insurance: indicatorInsurance(model, d),
    insurance_cancel_count: count(d.cancelled.length),
    insurance_last_canceled: maxDate(d.cancelled),
    insurance_pending_cancel_date: d.pendingCancel,
    insurance_history: history,
  });
}
