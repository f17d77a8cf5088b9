/**
 * Vehicle catalogue, VIN construction/decoding, and plates. A generated VIN encodes its catalogue
 * model (WMI + VDS), its model year and an integer "unit code" (plant + serial) that says which
 * carrier's equipment slot it belongs to, so `vin -> owner` and `plate -> owner` are O(1) at any
 * population size. VINs carry a valid ISO 3779 check digit.
 */
import { hash } from './prng.ts';

type UnitKind = 'POWER UNIT' | 'TRAILER';

export interface VehicleModel {
  /** WMI + VDS: the first 8 characters of the VIN */
  prefix: string;
  make: string;
  model: string;
  kind: UnitKind;
  unitTypeDesc: string;
  primaryCategory: string;
  vehicleType: string;
  gvwr: string;
  bodyClass: string;
  ncsaBodyType: string;
  cabType?: string;
  fuel?: string;
  trailerBodyType?: string;
  trailerType?: string;
  otherTrailerInfo?: string;
}

const CLASS8 = 'Class 8: 33,001 lb and above (14,969 kg and above)';
const CLASS7 = 'Class 7: 26,001 - 33,000 lb (11,794 - 14,969 kg)';
const TRACTOR_NCSA = 'Truck-tractor (Cab only, or with any number of trailing unit; any weight)';
const TRAILER_NCSA = 'Not Applicable (Trailer)';

function tractor(prefix: string, make: string, model: string): VehicleModel {
  return {
    prefix,
    make,
    model,
    kind: 'POWER UNIT',
    unitTypeDesc: 'TRUCK TRACTOR',
    primaryCategory: 'TRACTOR',
    vehicleType: 'TRUCK',
    gvwr: CLASS8,
    bodyClass: 'Truck-Tractor',
    ncsaBodyType: TRACTOR_NCSA,
    cabType: 'Conventional',
    fuel: 'Diesel',
  };
}

function trailer(prefix: string, make: string, model: string, body: string): VehicleModel {
  return {
    prefix,
    make,
    model,
    kind: 'TRAILER',
    unitTypeDesc: 'SEMI-TRAILER',
    primaryCategory: `${body.toUpperCase()} TRAILER`,
    vehicleType: 'TRAILER',
    gvwr: CLASS8,
    bodyClass: 'Trailer',
    ncsaBodyType: TRAILER_NCSA,
    trailerBodyType: body,
    trailerType: 'Semi-Trailer',
    otherTrailerInfo: `${body} semi-trailer, 53 ft`,
  };
}

export const VEHICLE_MODELS: readonly VehicleModel[] = [
  tractor('1FUJHHDR', 'FREIGHTLINER', 'Cascadia'),
  tractor('3AKJHHDR', 'FREIGHTLINER', 'Cascadia'),
  tractor('1XKYD49X', 'KENWORTH', 'T680'),
  tractor('1XPBD49X', 'PETERBILT', '579'),
  tractor('4V4NC9EH', 'VOLVO TRUCK', 'VNL'),
  tractor('3HSDZAPR', 'INTERNATIONAL', 'LT'),
  tractor('1NKZX4EX', 'KENWORTH', 'T880'),
  {
    ...tractor('1FVACWFB', 'FREIGHTLINER', 'M2 106'),
    unitTypeDesc: 'STRAIGHT TRUCK',
    primaryCategory: 'STRAIGHT TRUCK',
    gvwr: CLASS7,
    bodyClass: 'Truck',
    ncsaBodyType: 'Single-unit straight truck or Cab-Chassis (GVWR greater than 26,000 lbs.)',
  },
  {
    ...tractor('1M8PDMPA', 'MOTOR COACH INDUSTRIES', 'J4500'),
    unitTypeDesc: 'MOTORCOACH',
    primaryCategory: 'BUS',
    vehicleType: 'BUS',
    bodyClass: 'Bus',
    ncsaBodyType: 'Cross Country/Intercity Bus',
    cabType: 'Forward Control',
  },
  {
    ...tractor('2PCH3349', 'PREVOST', 'H3-45'),
    unitTypeDesc: 'MOTORCOACH',
    primaryCategory: 'BUS',
    vehicleType: 'BUS',
    bodyClass: 'Bus',
    ncsaBodyType: 'Cross Country/Intercity Bus',
    cabType: 'Forward Control',
  },
  trailer('1GRAA062', 'GREAT DANE', 'Champion', 'Van'),
  trailer('1JJV532D', 'WABASH', 'DuraPlate', 'Van'),
  trailer('1UYVS253', 'UTILITY', '3000R', 'Reefer'),
  trailer('13N14830', 'FONTAINE', 'Infinity', 'Flatbed'),
  trailer('1H9AT406', 'POLAR TANK', 'DOT-406 Aluminum', 'Tank'),
  trailer('5CVCX753', 'COTTRELL', 'C4000 Car Carrier', 'Auto Transporter'),
];

const BY_PREFIX = new Map(VEHICLE_MODELS.map((m) => [m.prefix, m]));

export function vehicleModel(prefix: string): VehicleModel {
  const model = BY_PREFIX.get(prefix);
  if (!model) throw new Error(`unknown vehicle model ${prefix}`);
  return model;
}

/** Catalogue groups the generators draw from. */
export const TRACTORS = ['1FUJHHDR', '3AKJHHDR', '1XKYD49X', '1XPBD49X', '4V4NC9EH', '3HSDZAPR'];
export const VAN_TRAILERS = ['1GRAA062', '1JJV532D', '1UYVS253', '13N14830'];

const YEAR_CODES = '123456789ABCDEFGHJKLMNPRSTVWXY'; // 2001..2030
const PLANT_CODES = 'ABCDEFGHJKLMNPRSTUVWXYZ123456789';
const TRANSLIT: Record<string, number> = {};
'ABCDEFGH'.split('').forEach((c, i) => (TRANSLIT[c] = i + 1));
'JKLMN'.split('').forEach((c, i) => (TRANSLIT[c] = i + 1));
TRANSLIT.P = 7;
TRANSLIT.R = 9;
'STUVWXYZ'.split('').forEach((c, i) => (TRANSLIT[c] = i + 2));
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

function checkDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i += 1) {
    const c = vin[i] ?? '0';
    const value = c >= '0' && c <= '9' ? Number(c) : (TRANSLIT[c] ?? 0);
    sum += value * (WEIGHTS[i] ?? 0);
  }
  const rest = sum % 11;
  return rest === 10 ? 'X' : String(rest);
}

export function buildVin(prefix: string, modelYear: number, unitCode: number): string {
  const year = YEAR_CODES[modelYear - 2001] ?? 'A';
  const plant = PLANT_CODES[Math.floor(unitCode / 1_000_000)] ?? 'A';
  const serial = String(unitCode % 1_000_000).padStart(6, '0');
  const draft = `${prefix}0${year}${plant}${serial}`;
  return `${prefix}${checkDigit(draft)}${year}${plant}${serial}`;
}

export interface DecodedVin {
  model: VehicleModel;
  modelYear: number;
  unitCode: number;
}

/** Decode a VIN this dataset generated; undefined for anything else (bad length, check digit...). */
export function decodeVin(vin: string): DecodedVin | undefined {
  const text = vin.trim().toUpperCase();
  if (!/^[A-HJ-NPR-Z0-9]{17}$/.test(text) || checkDigit(text) !== text[8]) return undefined;
  const model = BY_PREFIX.get(text.slice(0, 8));
  const yearIndex = YEAR_CODES.indexOf(text[9] ?? '');
  const plant = PLANT_CODES.indexOf(text[10] ?? '');
  if (!model || yearIndex < 0 || plant < 0) return undefined;
  return { model, modelYear: 2001 + yearIndex, unitCode: plant * 1_000_000 + Number(text.slice(11)) };
}

/** The mask that scrambles unit codes into plates (fixed, so curated plates never change). */
const PLATE_MASK = hash(0x91a7e) & 0x1ffffff;

/** Plate `ABC1234` for a unit code (a bijection for codes below 2^25). */
export function plateOf(unitCode: number): string {
  const p = (unitCode ^ PLATE_MASK) >>> 0;
  let letters = Math.floor(p / 10_000);
  let head = '';
  for (let i = 0; i < 3; i += 1) {
    head = String.fromCharCode(65 + (letters % 26)) + head;
    letters = Math.floor(letters / 26);
  }
  return `${head}${String(p % 10_000).padStart(4, '0')}`;
}

/** Inverse of `plateOf`, or undefined when the text is not a plate of that shape. */
export function unitCodeOfPlate(plate: string): number | undefined {
  const text = plate.replace(/[\s-]/g, '').toUpperCase();
  const match = /^([A-Z]{3})(\d{4})$/.exec(text);
  if (!match) return undefined;
  let letters = 0;
  for (const c of match[1] ?? '') letters = letters * 26 + (c.charCodeAt(0) - 65);
  return ((letters * 10_000 + Number(match[2])) ^ PLATE_MASK) >>> 0;
}
