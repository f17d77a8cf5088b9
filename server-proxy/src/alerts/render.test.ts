/** What alert messages say: read in five seconds (docs/alerts.md, issue 29 item 7). */
import { describe, expect, it } from 'vitest';
import { severityContext } from '../../../src/lib/monitoring/change-severity.ts';
import { defaultSettings } from '../../../src/lib/vetting/index.ts';
import {
  htmlOf,
  sectionsOf,
  standingLine,
  subjectOf,
  textOf,
  webhookBody,
  type CarrierNames,
} from './render.ts';
import type { AlertPayload, SeenChange, StandingNotice } from './store.ts';

const URL = 'https://desk.example.com';

function seen(
  dot: string,
  profileId: string,
  field: string,
  prior: unknown,
  current: unknown,
  impact: SeenChange['impact'] = null,
): SeenChange {
  return {
    id: `c1-${dot}-${field}`,
    profileId,
    dot,
    field,
    channel: null,
    date: '2026-11-26',
    prior,
    current,
    impact,
  };
}

const SWIFT = ['4418207', '4418207-MC1612093'] as const;
const HANSEN = ['568253', '568253-MC277621'] as const;

// the order the service sent in issue 29: the revocation fifth, after an e-mail change
const swiftChanges = [
  seen(...SWIFT, 'total_power_units', 3, 4),
  seen(...SWIFT, 'telephone_number', '5550001', '5550002'),
  seen(...SWIFT, 'basic_alert_unsafe_driving', false, true),
  seen(...SWIFT, 'email_address', 'a@swift.test', 'b@swift.test'),
  seen(...SWIFT, 'authority_common', 'Active', 'Inactive'),
];
const names: CarrierNames = new Map([
  ['4418207', { legal: 'SWIFTPATH EXPRESS LLC', dba: 'SWIFTPATH' }],
  ['568253', { legal: 'HANSEN & ADKINS AUTO TRANSPORT INC', dba: null }],
]);

const payload = (carriers: AlertPayload['carriers'], more: Partial<AlertPayload> = {}) =>
  ({ type: 'changes', carriers, ...more }) as AlertPayload;

describe('change messages', () => {
  it('insurance below the policy minimum leads, even when the cover went up', () => {
    const settings = defaultSettings();
    settings.bipd_minimum = { ...settings.bipd_minimum, enabled: true, threshold: 1_000_000 };
    const sections = sectionsOf(
      [
        seen(...HANSEN, 'telephone_number', '1', '2'),
        seen(...HANSEN, 'insurance_bipd_on_file', '500000', '750000'),
      ],
      names,
      severityContext(settings),
    );
    expect(subjectOf(payload(sections))).toBe(
      'Liability insurance below the policy minimum — HANSEN & ADKINS AUTO TRANSPORT INC (USDOT 568253) · 2 changes on 1 carrier',
    );
  });

  it('put the worst change first and name it, with the carrier, in the subject', () => {
    const sections = sectionsOf(swiftChanges, names);
    expect(sections[0]?.changes.map((c) => c.field)).toEqual([
      'authority_common',
      'basic_alert_unsafe_driving',
      'telephone_number',
      'email_address',
      'total_power_units',
    ]);
    const message = payload(sections);
    expect(subjectOf(message)).toBe(
      'Common authority inactive — SWIFTPATH EXPRESS LLC (DBA SWIFTPATH) (USDOT 4418207) · 5 changes on 1 carrier',
    );
    const text = textOf(message, URL);
    const lines = text.split('\n');
    expect(lines[0]).toBe(subjectOf(message));
    const heading = lines.indexOf('SWIFTPATH EXPRESS LLC (DBA SWIFTPATH) (USDOT 4418207)');
    expect(heading).toBeGreaterThan(0);
    expect(lines[heading + 1]).toBe('  2026-11-26 Common authority: Active → Inactive');
    expect(text).not.toContain('4418207-MC1612093 (USDOT');
    const html = htmlOf(message, URL);
    expect(html.indexOf('Common authority')).toBeLessThan(html.indexOf('E-mail'));
    expect(html).toContain('SWIFTPATH EXPRESS LLC (DBA SWIFTPATH) (USDOT 4418207)');
  });

  it('a single change says just what and who', () => {
    const message = payload(
      sectionsOf([seen(...HANSEN, 'out_of_service_flag', false, true)], names),
    );
    expect(subjectOf(message)).toBe(
      'Out of service — HANSEN & ADKINS AUTO TRANSPORT INC (USDOT 568253)',
    );
  });

  it('carriers: approved carriers that now fail first, then by their worst change', () => {
    const sections = sectionsOf(
      [
        seen(...HANSEN, 'telephone_number', '1', '2'),
        seen('2214589', '2214589-MC900001', 'email_address', 'a', 'b', 'fails'),
        ...swiftChanges,
      ],
      names,
    );
    expect(sections.map((s) => s.dot)).toEqual(['2214589', '4418207', '568253']);
    expect(subjectOf(payload(sections))).toMatch(
      /^E-mail changed — USDOT 2214589 \(MC900001\) \(approved carrier now fails policy\) · 7 changes on 3 carriers$/,
    );
  });

  it('a carrier without a held name: its own legal-name change, else DOT and docket', () => {
    const renamed = sectionsOf([
      seen('3000001', '3000001-MC5', 'legal_name', 'OLD NAME LLC', 'NEW NAME LLC'),
    ]);
    expect(renamed[0]?.name).toBe('NEW NAME LLC');
    const [bare] = sectionsOf([seen(...SWIFT, 'indicator_insurance', true, false)]);
    expect(bare).not.toHaveProperty('name');
    const message = payload([bare!]);
    expect(subjectOf(message)).toBe('Insurance cancelled — USDOT 4418207 (MC1612093)');
    expect(textOf(message, URL)).toContain('\nUSDOT 4418207 (MC1612093)\n');
    const body = JSON.parse(
      webhookBody({ id: 'd1', created_at: 'now', payload: message }, URL),
    ) as {
      text: string;
    };
    expect(body.text.split('\n')[0]).toBe(
      'carrier-desk: Insurance cancelled — USDOT 4418207 (MC1612093)',
    );
  });
});

const ironclad: StandingNotice = {
  change_id: 7,
  dot: '2214589',
  name: 'IRONCLAD FREIGHT SYSTEMS',
  decision: 'approved',
  decision_id: 3,
  policy_version: 3,
  standing_before: 'holds',
  standing_after: 'now_fails',
  verdict_after: 'fail',
  reasons: ['Shared identifiers', 'Unsatisfactory rating'],
};

describe('policy announcements and the re-vet queue', () => {
  it('say which approved carrier now fails which policy, and why', () => {
    expect(standingLine(ironclad)).toBe(
      'Approved carrier now fails policy v3 — IRONCLAD FREIGHT SYSTEMS (USDOT 2214589): 2 reasons (Shared identifiers, Unsatisfactory rating)',
    );
    const passes: StandingNotice = {
      ...ironclad,
      change_id: 8,
      dot: '568253',
      name: 'HANSEN & ADKINS AUTO TRANSPORT INC',
      decision: 'rejected',
      standing_after: 'now_passes',
      verdict_after: 'pass',
      reasons: undefined,
    } as StandingNotice;
    // worst first whatever order the rows came in
    const message: AlertPayload = { type: 'standing', carriers: [], standing: [passes, ironclad] };
    expect(subjectOf(message)).toBe(
      'Approved carrier now fails policy v3 — IRONCLAD FREIGHT SYSTEMS (USDOT 2214589) · 1 more decision changed standing',
    );
    const text = textOf(message, URL);
    expect(text.indexOf('IRONCLAD')).toBeLessThan(text.indexOf('Rejected carrier now passes'));
    expect(text).toContain(`${URL}/carriers/2214589/overview`);
    const body = JSON.parse(
      webhookBody({ id: 'd2', created_at: 'now', payload: message }, URL),
    ) as {
      type: string;
      standing: { dot: string; url: string }[];
    };
    expect(body.type).toBe('decisions.standing');
    expect(body.standing.map((n) => n.dot)).toEqual(['2214589', '568253']);
  });

  it('digests list the decisions due for re-vetting', () => {
    const message = payload([], {
      revet_due: [
        {
          dot: '4418207',
          name: 'SWIFTPATH EXPRESS LLC',
          decision: 'approved',
          decision_id: 1,
          expires_on: '2026-11-01',
          due: 'overdue',
        },
        {
          dot: '568253',
          decision: 'approved',
          decision_id: 2,
          expires_on: '2026-12-05',
          due: 'soon',
        },
      ],
    });
    expect(subjectOf(message)).toBe('Re-vet due: 2 decisions (1 overdue)');
    const text = textOf(message, URL);
    expect(text).toContain(
      'SWIFTPATH EXPRESS LLC (USDOT 4418207) — re-vet overdue since 2026-11-01 (Approved carrier)',
    );
    expect(text).toContain('USDOT 568253 — re-vet due 2026-12-05');
  });
});
