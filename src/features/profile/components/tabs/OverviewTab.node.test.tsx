// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatCount, formatDate } from '../../../../lib/format.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../test/sandbox-profiles.node.ts';
import { OverviewTab } from './OverviewTab.tsx';
import { renderStatic } from './render-static.node.tsx';
import { riskFactorItems } from './risk-factors.ts';

function renderOverview(dot: string) {
  const { raw, parsed } = sandboxProfile(dot);
  const view = renderStatic(
    <OverviewTab dot={dot} profile={parsed.value} raw={raw} issues={parsed.issues} />,
  );
  return { ...view, profile: parsed.value };
}

describe('OverviewTab', () => {
  it.each([...new Set([...CURATED_DOTS, '265752'])])(
    'renders DOT %s: every risk factor and key figure',
    (dot) => {
      const { text, html, profile } = renderOverview(dot);
      const items = riskFactorItems(profile.risk_factors);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(text).toContain(item.label);
      const concerns = items.filter((item) => item.group === 'concern').length;
      expect(text).toContain(`Concerns (${concerns})`);
      expect(text).toContain(`Power units ${formatCount(profile.total_power_units)}`);
      expect(text).toContain(`Inspections ${formatCount(profile.inspections_total)}`);
      expect(text).toContain(`Crashes ${formatCount(profile.crashes_total)}`);
      expect(text).toContain(`Last crash ${formatDate(profile.last_crash_date)}`);
      expect(html).toContain(`href="/carriers/${dot}/authority"`);
    },
  );

  it('lists the revoked predecessor’s revocation and fatal-crash-free record correctly', () => {
    const { text } = renderOverview('3187452');
    const concerns = text.slice(text.indexOf('Concerns'), text.indexOf('Positives'));
    expect(concerns).toContain('Authority revoked in the last 36 months: Yes');
    expect(concerns).toContain('USDOT number ordered out of service: Yes');
  });

  it('puts the fatal crashes of the over-threshold carrier among the concerns', () => {
    const { text } = renderOverview('2214589');
    const concerns = text.slice(text.indexOf('Concerns'), text.indexOf('Positives'));
    expect(concerns).toContain('Crashes with fatalities: Yes');
    expect(concerns).toContain('At least one BASIC above its intervention threshold: Yes');
  });
});
