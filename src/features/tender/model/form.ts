/**
 * The tender-check form (docs/tender-check.md): what the user typed, the body it becomes, and
 * the contract's own validation turned into one readable message per field, so the page says what
 * is wrong before anything is sent (the proxy checks the same schema and answers 400 otherwise).
 */
import {
  tenderCheckRequestSchema,
  type TenderCheckInput,
  type TenderEquipment,
} from '../../../lib/tender/contract.ts';

type CarrierKind = 'dot' | 'docket';

export interface TenderForm {
  kind: CarrierKind;
  carrier: string;
  phone: string;
  email: string;
  contactName: string;
  cargoClasses: string[];
  cargoValue: string;
  hazmat: boolean;
  equipment: TenderEquipment | '';
  pickupDate: string;
  originState: string;
  destinationState: string;
}

export const EMPTY_FORM: TenderForm = {
  kind: 'dot',
  carrier: '',
  phone: '',
  email: '',
  contactName: '',
  cargoClasses: [],
  cargoValue: '',
  hazmat: false,
  equipment: '',
  pickupDate: '',
  originState: '',
  destinationState: '',
};

/** The fields a message can be about (the form's controls). */
export type FormField =
  | 'carrier'
  | 'phone'
  | 'email'
  | 'contactName'
  | 'cargoClasses'
  | 'cargoValue'
  | 'equipment'
  | 'pickupDate'
  | 'originState'
  | 'destinationState'
  | 'form';

export type FormErrors = Partial<Record<FormField, string>>;

/** The form pre-filled from the address: `?dot_number=568253` or `?docket_number=MC277621`. */
export function formFromQuery(params: URLSearchParams): TenderForm {
  const docket = params.get('docket_number');
  const dot = params.get('dot_number');
  if (docket) return { ...EMPTY_FORM, kind: 'docket', carrier: docket };
  if (dot) return { ...EMPTY_FORM, kind: 'dot', carrier: dot };
  return EMPTY_FORM;
}

const trimmed = (value: string): string | undefined => {
  const text = value.trim();
  return text === '' ? undefined : text;
};

/**
 * The body the form describes; blank fields are left out, and so is the load when nothing of it
 * was given (the hazmat box alone counts as a load: "not hazardous" is a statement).
 */
export function bodyOf(form: TenderForm, maxCostUsd?: number): TenderCheckInput {
  const carrier = trimmed(form.carrier);
  const value = trimmed(form.cargoValue);
  const load = {
    ...(value !== undefined ? { cargo_value: Number(value.replace(/[$,\s]/g, '')) } : {}),
    ...(form.cargoClasses.length > 0 ? { cargo_classes: form.cargoClasses } : {}),
    ...(form.equipment ? { equipment: form.equipment } : {}),
    ...(trimmed(form.pickupDate) ? { pickup_date: form.pickupDate } : {}),
    ...(form.originState ? { origin_state: form.originState } : {}),
    ...(form.destinationState ? { destination_state: form.destinationState } : {}),
  };
  const hasLoad = Object.keys(load).length > 0 || form.hazmat;
  return {
    ...(carrier !== undefined
      ? form.kind === 'dot'
        ? { dot_number: carrier }
        : { docket_number: carrier }
      : {}),
    ...(trimmed(form.phone) ? { phone: form.phone.trim() } : {}),
    ...(trimmed(form.email) ? { email: form.email.trim() } : {}),
    ...(trimmed(form.contactName) ? { contact_name: form.contactName.trim() } : {}),
    ...(hasLoad ? { load: { ...load, hazmat: form.hazmat } } : {}),
    ...(maxCostUsd !== undefined ? { max_cost_usd: maxCostUsd } : {}),
  } as TenderCheckInput;
}

/** Which control a contract path is about. */
function fieldOf(path: readonly PropertyKey[]): FormField {
  const [head, sub] = path;
  switch (head) {
    case 'dot_number':
    case 'docket_number':
      return 'carrier';
    case 'phone':
      return 'phone';
    case 'email':
      return 'email';
    case 'contact_name':
      return 'contactName';
    case 'load':
      switch (sub) {
        case 'cargo_value':
          return 'cargoValue';
        case 'cargo_classes':
          return 'cargoClasses';
        case 'equipment':
          return 'equipment';
        case 'pickup_date':
          return 'pickupDate';
        case 'origin_state':
          return 'originState';
        case 'destination_state':
          return 'destinationState';
        default:
          return 'form';
      }
    default:
      return path.length === 0 ? 'carrier' : 'form';
  }
}

/** The contract's messages in the form's words: a quoted field name becomes the control's label. */
const WORDS: [RegExp, string][] = [
  [/"dot_number"/g, 'The USDOT number'],
  [/"docket_number"/g, 'The docket'],
  [/"phone"/g, 'The phone'],
  [/"email"/g, 'The e-mail'],
  [/"contact_name"/g, 'The contact name'],
  [/"load\.cargo_value"/g, 'The cargo value'],
  [/"load\.cargo_classes"/g, 'The cargo classes'],
  [/"load\.equipment"/g, 'The equipment'],
  [/"load\.pickup_date"/g, 'The pickup date'],
];

function readable(message: string): string {
  return WORDS.reduce((text, [pattern, words]) => text.replace(pattern, words), message).replace(
    /Name the carrier as claimed: The USDOT number or The docket/,
    'Enter the USDOT number or the docket the offer names',
  );
}

/** One message per control (the first the contract gives), or none when the body is valid. */
export function validate(form: TenderForm): FormErrors {
  const errors: FormErrors = {};
  // the contract's "name the carrier" check runs only on an otherwise valid body: said here too
  if (form.carrier.trim() === '') {
    errors.carrier = 'Enter the USDOT number or the docket the offer names';
  }
  if (
    form.cargoValue.trim() !== '' &&
    !Number.isFinite(Number(form.cargoValue.replace(/[$,\s]/g, '')))
  ) {
    errors.cargoValue = 'The cargo value must be a number of dollars, such as 180000';
  }
  const result = tenderCheckRequestSchema.safeParse(bodyOf(form));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = fieldOf(issue.path);
      errors[field] ??= readable(issue.message);
    }
  }
  return errors;
}
