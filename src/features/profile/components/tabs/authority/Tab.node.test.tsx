// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDollars } from '../../../../../lib/format.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import { AuthorityTab } from './Tab.tsx';
import { coverageRows } from './model.ts';
import { renderStatic } from '../testing/render-static.node.tsx';

function renderAuthority(dot: string) {
  const { raw, parsed } = sandboxProfile(dot);
  const view = renderStatic(
    <AuthorityTab dot={dot} profile={parsed.value} raw={raw} issues={parsed.issues} />,
  );
  return { ...view, profile: parsed.value };
}

describe('AuthorityTab', () => {
  it.each([...new Set([...CURATED_DOTS, '265752'])])(
    'renders DOT %s: authority, coverage, history, BOC-3',
    (dot) => {
      const { text, profile } = renderAuthority(dot);
      expect(text).toContain(`Common carrier ${profile.authority_common ?? '—'}`);
      expect(text).toContain(`Broker ${profile.authority_broker ?? '—'}`);
      expect(text).toContain(`Revocations ${formatCount(profile.total_revocations)}`);
      for (const row of coverageRows(profile)) {
        expect(text).toContain(
          `${row.label} ${formatDollars(row.onFile)} ${formatDollars(row.required)}`,
        );
        if (row.status === 'shortfall') {
          expect(text).toContain(`Shortfall: ${formatDollars(row.shortfall)} missing`);
        }
      }
      const policies = profile.insurance_history ?? [];
      expect(text).toContain(`Insurance history (${formatCount(policies.length)} policies)`);
      for (const policy of policies) expect(text).toContain(policy.insurance_carrier ?? '');
      for (const entry of profile.authority_history ?? []) {
        expect(text).toContain(formatDate(entry.original_served_date));
      }
      if (profile.boc3_company_name) expect(text).toContain(profile.boc3_company_name);
      else expect(text).toContain('No process agent (BOC-3) on file.');
    },
  );

  it('shows the shortfalls of the live-shape carrier in words', () => {
    const { text } = renderAuthority('265752');
    expect(text).toContain('Liability (BIPD) $0 $5,000,000 ✕ Shortfall: $5,000,000 missing');
    expect(text).toContain('Surety bond / trust fund $0 $75,000 ✕ Shortfall: $75,000 missing');
    expect(text).toContain('Historical');
  });

  it('highlights the pending BIPD cancellation of the Canadian carrier', () => {
    const { text, html, profile } = renderAuthority('2456781');
    const pending = formatDate(profile.insurance_pending_cancel_date);
    expect(text).toContain(`Cancellation pending: effective ${pending}`);
    expect(text).toContain(`Cancellation pending: ${pending}`);
    expect(html).toContain('bg-amber-50');
  });

  it('reads the intrastate carrier’s null indicators as not applicable', () => {
    const { text } = renderAuthority('1455872');
    expect(text).toContain('Authority indicator: Not applicable');
    expect(text).toContain('Insurance indicator: Not applicable');
  });
});
