// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../../../lib/service/index.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import { overviewSignals, type OverviewSignal } from './overview-signals.ts';

function signalsOf(dot: string): Record<string, OverviewSignal> {
  const signals = overviewSignals(sandboxProfile(dot).parsed.value, dot);
  return Object.fromEntries(signals.map((signal) => [signal.id, signal]));
}

function textOf(signal: OverviewSignal | undefined): string {
  return (signal?.parts ?? [])
    .map((part) => (typeof part === 'string' ? part : `DOT ${part.dot} ${part.name ?? ''}`))
    .join('');
}

describe('overview signals', () => {
  it('warns the successor 4418207 of its out-of-service predecessor, with the evidence', () => {
    const { network, contact } = signalsOf('4418207');
    expect(network?.tone).toBe('concern');
    expect(network?.parts).toContainEqual({ dot: '3187452', name: 'RAPID ROUTE CARRIERS LLC' });
    expect(textOf(network)).toContain(
      'DOT 3187452 RAPID ROUTE CARRIERS LLC (USDOT inactive, out of service): physical address, telephone and equipment (4 VINs)',
    );
    expect(network?.evidence.href).toBe('/carriers/4418207/network#network-summary');
    expect(contact?.tone).toBe('concern');
    expect(textOf(contact)).toContain('Phone changed 21 days before the snapshot (26 Oct 2026)');
    expect(textOf(contact)).toContain('E-mail changed 14 days before the snapshot (2 Nov 2026)');
    expect(contact?.evidence.href).toBe('/carriers/4418207/contact#contact-recent');
  });

  it('names the active successor 4418207 on the predecessor 3187452', () => {
    const { network, contact } = signalsOf('3187452');
    expect(network?.tone).toBe('concern');
    expect(network?.parts).toContainEqual({ dot: '4418207', name: 'SWIFTPATH EXPRESS LLC' });
    expect(textOf(network)).toMatch(
      /this carrier is USDOT inactive, out of service, and its likely successor DOT 4418207 SWIFTPATH EXPRESS LLC \(USDOT active, registered later\) shares its physical address, telephone and equipment \(4 VINs\)/,
    );
    expect(contact?.tone).toBe('ok');
  });

  it('does not call an active carrier that shares an identifier with another active one a chameleon', () => {
    const { network } = signalsOf('1120987');
    expect(network?.tone).toBe('info');
    expect(textOf(network)).toBe(
      'Shares identifiers with 1 other carrier; none is known to be revoked, inactive or out of service.',
    );
  });

  it('says what is true for carriers with no links and no recent changes', () => {
    for (const dot of CURATED_DOTS.filter((d) => !['4418207', '3187452'].includes(d))) {
      const { network, contact } = signalsOf(dot);
      expect(network?.tone, dot).not.toBe('concern');
      // 2456781's e-mail changed three days before the snapshot (a tender-check sandbox case)
      if (dot !== '2456781') expect(contact?.tone, dot).toBe('ok');
    }
  });

  it('warns of the e-mail 2456781 changed three days before the snapshot', () => {
    const { contact } = signalsOf('2456781');
    expect(contact?.tone).toBe('concern');
    expect(textOf(contact)).toContain('E-mail changed 3 days before the snapshot (13 Nov 2026)');
  });

  it('reads the relation from the network lists alone when the summary lacks the statuses', () => {
    const { value } = parseProfile({
      dot_number: '4418207',
      usdot_status: 'Active',
      network_graph_telephone_number: ['3187452'],
    });
    const [network] = overviewSignals(value, '4418207');
    expect(network?.tone).toBe('info');
  });
});
