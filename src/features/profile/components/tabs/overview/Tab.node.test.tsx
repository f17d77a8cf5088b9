// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatCount, formatDate } from '../../../../../lib/format.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import { OverviewTab } from './Tab.tsx';
import { renderStatic } from '../testing/render-static.node.tsx';
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
      const items = riskFactorItems(profile);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(text).toContain(item.text);
      expect(text.slice(text.indexOf('Risk factors'))).not.toMatch(/: (Yes|No)\b/);
      const concerns = items.filter((item) => item.group === 'concern').length;
      expect(text).toContain(`Concerns (${concerns})`);
      expect(text).toContain(`Power units ${formatCount(profile.total_power_units)}`);
      expect(text).toContain(`Inspections ${formatCount(profile.inspections_total)}`);
      expect(text).toContain(`Crashes ${formatCount(profile.crashes_total)}`);
      expect(text).toContain(`Last crash ${formatDate(profile.last_crash_date)}`);
      expect(html).toContain(`href="/carriers/${dot}/authority"`);
    },
  );

  it('links the flags whose evidence is on the overview to the status badges, not to the page itself', () => {
    for (const dot of CURATED_DOTS) {
      const { html } = renderOverview(dot);
      expect(html, dot).not.toMatch(new RegExp(`href="/carriers/${dot}/overview"`));
    }
    const { html } = renderOverview('3187452');
    expect(html).toContain('href="/carriers/3187452/overview#profile-status"');
  });

  it('shows the USDOT number’s age and the day it was added under Registration', () => {
    const { text } = renderOverview('4418207');
    expect(text).toContain('Registration');
    expect(text).toContain('USDOT number age 212 days');
    expect(text).toContain('USDOT number added 18 Apr 2026');
  });

  it('lists the revoked predecessor’s revocation and out-of-service order as concerns', () => {
    const { text } = renderOverview('3187452');
    const concerns = text.slice(text.indexOf('Concerns ('), text.indexOf('In order ('));
    expect(concerns).toContain('Authority revoked in the last 36 months');
    expect(concerns).toContain('USDOT number ordered out of service');
    expect(concerns).not.toContain('No crash with fatalities');
  });

  it('puts the fatal crashes of the over-threshold carrier among the concerns', () => {
    const { text } = renderOverview('2214589');
    const concerns = text.slice(text.indexOf('Concerns ('), text.indexOf('In order ('));
    expect(concerns).toContain('Crashes with fatalities on record');
    expect(concerns).toContain('At least one BASIC above its intervention threshold');
    // a cancelled policy replaced by a sufficient one is information, not a concern
    expect(concerns).not.toContain('Insurance policy cancelled');
    expect(text).toContain(
      'Insurance policy cancelled in the last year (last cancellation 19 Jan 2026)',
    );
  });

  it('does not list BIPD exactly at the minimum as a concern', () => {
    const { text } = renderOverview('4418207');
    const concerns = text.slice(text.indexOf('Concerns ('), text.indexOf('In order ('));
    const ok = text.slice(text.indexOf('In order ('), text.indexOf('For information ('));
    expect(concerns).not.toContain('BIPD');
    expect(ok).toContain(
      'BIPD liability insurance on file 750,000 USD — meets the 750,000 USD minimum',
    );
  });

  it('summarises the chameleon relation and recent contact changes, linking to the evidence', () => {
    const successor = renderOverview('4418207');
    expect(successor.text).toContain('Chameleon warning');
    expect(successor.html).toContain('href="/carriers/3187452/overview"');
    expect(successor.html).toContain('href="/carriers/4418207/network#network-summary"');
    expect(successor.text).toContain('Contact details changed recently');
    expect(successor.html).toContain('href="/carriers/4418207/contact#contact-recent"');
    const predecessor = renderOverview('3187452');
    expect(predecessor.text).toContain(
      'its likely successor DOT 4418207 SWIFTPATH EXPRESS LLC (USDOT active, registered later)',
    );
    expect(predecessor.html).toContain('href="/carriers/4418207/overview"');
  });
});
