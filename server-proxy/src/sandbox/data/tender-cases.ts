/**
 * The tender-check cases of the sandbox (issue 33 item 4; docs/sandbox-data.md#tender-check-cases):
 * offers made in the name of a curated carrier, each showing one identity signal, with the answer
 * the check is designed to give under the default policy once its searches ran (the page's
 * "confirm" with enough `max_cost_usd`; before that an unheld search is pending, so Call back first).
 *
 * The data behind them is in curated.ts (3187452's old phone line, 2456781's e-mail change) and
 * population-identity.ts (the population never uses a fixture's company domain), so a search by
 * these phones and e-mails finds the same carriers at every seed and population size.
 */

/** An offer as `POST /api/local/tender-checks` takes it (src/lib/tender/contract.ts). */
interface TenderCaseBody {
  dot_number?: string;
  docket_number?: string;
  phone?: string;
  email?: string;
  contact_name?: string;
  load?: {
    cargo_value?: number;
    cargo_classes?: string[];
    hazmat?: boolean;
    equipment?: string;
    pickup_date?: string;
    origin_state?: string;
    destination_state?: string;
  };
  max_cost_usd?: number;
}

interface TenderCase {
  title: string;
  body: TenderCaseBody;
  /** the designed answer once every search ran */
  answer: 'go' | 'call_back' | 'do_not_tender';
  /**
   * the rules the case is about: each says review or fail (others may too, e.g. the verdict's),
   * named as src/lib/tender/contract.ts names them
   */
  signals: string[];
}

/** A car-hauling load HANSEN & ADKINS (568253) can take: its class, under its $250,000 cargo cover. */
const HANSEN_LOAD: TenderCaseBody['load'] = {
  cargo_value: 180_000,
  cargo_classes: ['motor_vehicles'],
  hazmat: false,
  equipment: 'car_hauler',
  origin_state: 'CA',
  destination_state: 'AZ',
};

export const TENDER_CASES = {
  /** HANSEN & ADKINS's registered phone and e-mail, a load it fits: Go. */
  clean: {
    title: 'Clean offer from the registered contact',
    body: {
      dot_number: '568253',
      phone: '(562) 602-7220',
      email: 'safety@hansenadkins.com',
      contact_name: 'DOUGLAS ADKINS',
      load: HANSEN_LOAD,
    },
    answer: 'go',
    signals: [],
  },
  /**
   * Someone claiming HANSEN & ADKINS from hansen-adkins.com, one edit from its registered
   * hansenadkins.com; no carrier registers that domain or address: Do not tender.
   */
  lookalike: {
    title: 'Impersonator writing from a look-alike domain',
    body: {
      docket_number: 'MC277621',
      email: 'dispatch@hansen-adkins.com',
      contact_name: 'DOUG ADKINS',
      load: HANSEN_LOAD,
    },
    answer: 'do_not_tender',
    signals: ['email_match', 'lookalike_domain'],
  },
  /**
   * The same, from a free-mail address, while HANSEN & ADKINS registers a company domain; the
   * address is on no carrier: Call back first, on (562) 602-7220.
   */
  free_mail: {
    title: 'Impersonator writing from a free-mail address',
    body: {
      dot_number: '568253',
      email: 'hansenadkins.dispatch@gmail.com',
      contact_name: 'DOUG ADKINS',
      load: HANSEN_LOAD,
    },
    answer: 'call_back',
    signals: ['email_match', 'free_mail'],
  },
  /**
   * A call in HANSEN & ADKINS's name from (469) 555-0163, which is not its number but was the
   * registered phone of RAPID ROUTE CARRIERS LLC (3187452, revoked, out of service) until 400 days
   * before the snapshot: Do not tender.
   */
  phone_of_another_dot: {
    title: 'Phone registered to another DOT in the past',
    body: {
      dot_number: '568253',
      phone: '469-555-0163',
      contact_name: 'MIKE DAVIS',
      load: HANSEN_LOAD,
    },
    answer: 'do_not_tender',
    signals: ['phone_match', 'phone_other_carriers'],
  },
  /**
   * TRILLIUM (MC823456) offering from its registered e-mail and phone; but that e-mail became the
   * registered one three days before the snapshot (2026-11-13), and its verdict needs review
   * anyway (pending BIPD cancellation): Call back first, on (905) 447-1200.
   */
  email_changed: {
    title: 'Carrier whose e-mail changed three days ago',
    body: {
      docket_number: 'MC823456',
      phone: '905-447-1200',
      email: 'ops@trilliumtransport.ca',
      contact_name: 'GURPREET SANDHU',
      load: {
        cargo_value: 60_000,
        cargo_classes: ['general_freight'],
        hazmat: false,
        equipment: 'dry_van',
        origin_state: 'ON',
        destination_state: 'MI',
      },
    },
    answer: 'call_back',
    signals: ['contact_changed', 'verdict'],
  },
} satisfies Record<string, TenderCase>;

