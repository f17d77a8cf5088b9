/** Wire families: fleet, cargo, contact, process agent, change counters, contact history, geo. */
import { SNAPSHOT_DATE, ageInDays, dateOf, dayOf } from './calendar.ts';
import { addressLine } from './generate.ts';
import type { Address, CarrierModel, ContactKey, PastValue } from './model.ts';
import { addressId, compact, count, idMaker, maxDate, normaliseAddress, type Fields } from './wire-helpers.ts';

const CARGO_FIELDS: Record<string, string> = {
  general_freight: 'General Freight',
  household: 'Household Goods',
  metal_sheet_coils_rolls: 'Metal: sheets, coils, rolls',
  motor_vehicles: 'Motor Vehicles',
  driveaway_towaway: 'Drive/Tow away',
  logs_poles_beams_lumber: 'Logs, Poles, Beams, Lumber',
  building_materials: 'Building Materials',
  mobile_homes: 'Mobile Homes',
  machinery_large_objects: 'Machinery, Large Objects',
  fresh_produce: 'Fresh Produce',
  liquids_gases: 'Liquids/Gases',
  intermodal_containers: 'Intermodal Cont.',
  passengers: 'Passengers',
  oilfield_equipment: 'Oilfield Equipment',
  livestock: 'Livestock',
  grain_feed_hay: 'Grain, Feed, Hay',
  coal_coke: 'Coal/Coke',
  meat: 'Meat',
  garbage_refuse_trash: 'Garbage/Refuse',
  chemicals: 'Chemicals',
  us_mail: 'US Mail',
  dry_bulk_commodities: 'Commodities Dry Bulk',
  refrigerated_foods: 'Refrigerated Food',
  beverages: 'Beverages',
  paper_products: 'Paper Products',
  utility: 'Utilities',
  farm_supplies: 'Agricultural/Farm Supplies',
  construction: 'Construction',
  water_well: 'Water Well',
  other_cargo: 'Other',
};

export function fleetFields(model: CarrierModel): Fields {
  const f = model.fleet;
  if (!f) return {};
  const local = Math.round(f.drivers * f.localShare);
  const interstate = model.operation === 'interstate';
  const split = (within: number, beyond: number) => (interstate ? [within, beyond, 0, 0] : [0, 0, within, beyond]);
  const [iw = 0, ib = 0, sw = 0, sb = 0] = split(local, f.drivers - local);
  return {
    total_power_units: count(f.powerUnits),
    total_drivers: count(f.drivers),
    total_drivers_cdl: count(f.cdlDrivers),
    total_trucks: count(f.trucks),
    total_trailers: count(f.trailers),
    total_buses: count(f.buses),
    owned_tractors: count(f.ownedTractors),
    owned_trailers: count(f.ownedTrailers),
    term_leased_tractors: count(f.termLeasedTractors),
    term_leased_trailers: count(f.termLeasedTrailers),
    mcs150_mileage: count(f.mileage),
    mcs150_date: f.mcs150Date,
    mcs150_year: f.mcs150Date.slice(0, 4),
    avg_trip_leased_drivers: count(f.tripLeasedDrivers),
    num_drivers_interstate_within_100mi: count(iw),
    num_drivers_interstate_beyond_100mi: count(ib),
    num_drivers_interstate_total: count(iw + ib),
    num_drivers_intrastate_within_100mi: count(sw),
    num_drivers_intrastate_beyond_100mi: count(sb),
    num_drivers_intrastate_total: count(sw + sb),
  };
}

export function cargoFields(model: CarrierModel): Fields {
  const out: Fields = {
    cargo_carried: model.cargo.map((c) => CARGO_FIELDS[c] ?? c).join(', ') || undefined,
  };
  for (const key of Object.keys(CARGO_FIELDS)) out[key] = model.cargo.includes(key);
  out.other_cargo_desc = model.otherCargoDesc;
  return compact(out);
}

function addressParts(prefix: string, a: Address | undefined): Fields {
  if (!a) return {};
  return {
    [prefix]: addressLine(a),
    [`${prefix}_street`]: a.street,
    [`${prefix}_city`]: a.city,
    [`${prefix}_state`]: a.state,
    [`${prefix}_zip_code`]: a.zip,
    [`${prefix}_iso_country_code`]: a.country,
  };
}

function idOfAddress(a: Address): string {
  return addressId(normaliseAddress(addressLine(a)));
}

export function contactFields(model: CarrierModel): Fields {
  const domain = model.email?.split('@')[1];
  const boc3 = model.boc3;
  return compact({
    telephone_number: model.phone,
    fax_number: model.fax,
    cellphone_number: model.cell,
    email_address: model.email,
    email_domain: domain?.split('.')[0],
    company_contact_primary: model.contactPrimary,
    company_contact_secondary: model.contactSecondary,
    ...addressParts('physical_address', model.physical),
    ...addressParts('mailing_address', model.mailing),
    ...addressParts('physical_address_authority', model.physical),
    physical_telephone_number_authority: model.phone,
    physical_fax_number_authority: model.fax,
    physical_address_id: idOfAddress(model.physical),
    mailing_address_id: model.mailing ? idOfAddress(model.mailing) : undefined,
    physical_address_authority_id: idOfAddress(model.physical),
    undeliverable_physical_address: false,
    undeliverable_mailing_address: model.mailing ? (model.undeliverableMailing ?? false) : undefined,
    undeliverable_physical_address_authority: false,
    boc3_company_name: boc3?.company,
    boc3_attn: boc3?.attn,
    boc3_address_street: boc3?.address.street,
    boc3_address_city: boc3?.address.city,
    boc3_address_state: boc3?.address.state,
    boc3_address_zip_code: boc3?.address.zip,
    boc3_address_country_code: boc3?.address.country,
  });
}

/** The current value of each tracked contact key. */
function currentContacts(model: CarrierModel): [ContactKey, string][] {
  const entries: [ContactKey, string | undefined][] = [
    ['legal_name', model.legalName],
    ['dba_name', model.dbaName],
    ['telephone_number', model.phone],
    ['fax_number', model.fax],
    ['cellphone_number', model.cell],
    ['email_address', model.email],
    ['company_contact_primary', model.contactPrimary],
    ['physical_address', addressLine(model.physical)],
    ['mailing_address', model.mailing ? addressLine(model.mailing) : undefined],
  ];
  return entries.filter((e): e is [ContactKey, string] => e[1] !== undefined);
}

function startOfCurrent(model: CarrierModel, key: ContactKey): string {
  const lastEnd = maxDate(model.past.filter((p) => p.key === key).map((p) => p.end));
  return lastEnd ? dateOf(dayOf(lastEnd) + 1) : model.contactSince;
}

function historyItem(nextId: () => string, p: PastValue | [ContactKey, string, string]): Fields {
  if (Array.isArray(p)) {
    const [key, value, start] = p;
    return { _id: nextId(), key, value, start_date: start, end_date: SNAPSHOT_DATE, current_flag: true };
  }
  return { _id: nextId(), key: p.key, value: p.value, start_date: p.start, end_date: p.end, current_flag: false };
}

function addressIdHistory(model: CarrierModel): Fields[] {
  const nextId = idMaker(model.dot, 'address_ids');
  const keyOf = (k: ContactKey) => (k === 'physical_address' ? 'physical_address_id' : 'mailing_address_id');
  const current = currentContacts(model).filter(([k]) => k.endsWith('address'));
  const items = current.map(([k, v]) => ({
    _id: nextId(),
    key: keyOf(k),
    value: addressId(normaliseAddress(v)),
    start_date: startOfCurrent(model, k),
    end_date: SNAPSHOT_DATE,
    current_flag: true,
  }));
  for (const p of model.past.filter((x) => x.key.endsWith('address'))) {
    items.push({
      _id: nextId(),
      key: keyOf(p.key),
      value: addressId(normaliseAddress(p.value)),
      start_date: p.start,
      end_date: p.end,
      current_flag: false,
    });
  }
  return items;
}

function changeCounter(model: CarrierModel, name: string, keys: ContactKey[]): Fields {
  const changes = model.past.filter((p) => keys.includes(p.key));
  return compact({
    [`${name}_change_count`]: count(changes.length),
    [`${name}_last_changed`]: maxDate(changes.map((p) => p.end)),
  });
}

export function contactHistoryFields(model: CarrierModel): Fields {
  const nextId = idMaker(model.dot, 'contact_history');
  const current = currentContacts(model).map(([k, v]) =>
    historyItem(nextId, [k, v, startOfCurrent(model, k)]),
  );
  const past = model.past.map((p) => historyItem(nextId, p));
  const addressChanges = model.past.filter((p) => p.key.endsWith('address')).length;
  return {
    ...changeCounter(model, 'name', ['legal_name', 'dba_name']),
    ...changeCounter(model, 'email', ['email_address']),
    ...changeCounter(model, 'phone', ['telephone_number', 'cellphone_number', 'fax_number']),
    ...changeCounter(model, 'address', ['physical_address', 'mailing_address']),
    ...changeCounter(model, 'contact', [
      'legal_name',
      'dba_name',
      'telephone_number',
      'cellphone_number',
      'fax_number',
      'email_address',
      'company_contact_primary',
      'physical_address',
      'mailing_address',
    ]),
    indicator_address_history: addressChanges > 0,
    contact_history: [...current, ...past],
    address_ids: addressIdHistory(model),
  };
}

/** Whether `keys` have not changed within the last year. */
export function stable(model: CarrierModel, keys: ContactKey[]): boolean {
  return !model.past.some((p) => keys.includes(p.key) && ageInDays(p.end) <= 365);
}

export function geoFields(model: CarrierModel): Fields {
  const point = (a: Address) => ({ lat: a.lat, lon: a.lon });
  return {
    geo_points: {
      physical_address_zip_code: point(model.physical),
      mailing_address_zip_code: point(model.mailing ?? model.physical),
    },
  };
}
