import { useMemo } from 'react';
import { Link } from 'react-router';
import { carrierPath } from '../../../../../lib/carrier/paths.ts';
import type { Profile } from '../../../../../lib/service/index.ts';
import { useNetworkView, withNetworkFields } from '../../../api/profile-view.ts';
import { focusWhenShown } from './focus-target.ts';
import { overviewSignals, type OverviewSignal } from './overview-signals.ts';
import { Section } from '../kit/Section.tsx';

const SYMBOL: Record<OverviewSignal['tone'], string> = { concern: '!', ok: '✓', info: '•' };
const WORD: Record<OverviewSignal['tone'], string> = {
  concern: 'Concern',
  ok: 'In order',
  info: 'Note',
};
const SYMBOL_CLASS: Record<OverviewSignal['tone'], string> = {
  concern: 'text-amber-800 dark:text-amber-300',
  ok: 'text-emerald-700 dark:text-emerald-400',
  info: 'text-neutral-600 dark:text-neutral-400',
};

function Signal({ signal }: { signal: OverviewSignal }) {
  return (
    <li className="flex gap-2" data-signal={signal.id} data-tone={signal.tone}>
      <span aria-hidden="true" className={`font-bold ${SYMBOL_CLASS[signal.tone]}`}>
        {SYMBOL[signal.tone]}
      </span>
      <span className="min-w-0 break-words">
        <span className="sr-only">{WORD[signal.tone]}: </span>
        {signal.parts.map((part, index) =>
          typeof part === 'string' ? (
            <span key={index}>{part}</span>
          ) : (
            <Link
              key={index}
              to={carrierPath(part.dot)}
              className="font-medium text-sky-800 underline dark:text-sky-300"
            >
              DOT {part.dot}
              {part.name ? ` ${part.name}` : ''}
            </Link>
          ),
        )}{' '}
        <Link
          to={signal.evidence.href}
          onClick={() => focusWhenShown(signal.evidence.href.split('#')[1] ?? '')}
          className="text-sm whitespace-nowrap text-sky-800 underline dark:text-sky-300"
        >
          Evidence: {signal.evidence.label}
        </Link>
      </span>
    </li>
  );
}

interface OverviewSignalsProps {
  dot: string;
  profile: Profile;
  /**
   * `profile` is the proxy's summary, which leaves out the equipment links (and so the statuses of
   * the carriers sharing equipment): the network line waits for the proxy's `network` view.
   */
  fromSummary?: boolean;
}

/** The chameleon and contact-change summary lines at the top of the overview. */
export function OverviewSignals({ dot, profile, fromSummary = false }: OverviewSignalsProps) {
  return fromSummary ? (
    <SignalsWithNetworkView dot={dot} profile={profile} />
  ) : (
    <SignalList signals={overviewSignals(profile, dot)} waiting={false} />
  );
}

function SignalsWithNetworkView({ dot, profile }: { dot: string; profile: Profile }) {
  const network = useNetworkView(dot, true);
  const merged = useMemo(
    () => (network.data ? withNetworkFields(profile, network.data) : profile),
    [profile, network.data],
  );
  // on an error the line says what the summary shows (the linked carriers, statuses unknown)
  const waiting = network.isPending;
  const signals = overviewSignals(merged, dot).filter(
    (signal) => !(waiting && signal.id === 'network'),
  );
  return <SignalList signals={signals} waiting={waiting} />;
}

function SignalList({ signals, waiting }: { signals: OverviewSignal[]; waiting: boolean }) {
  return (
    <Section id="overview-signals" title="Identity signals">
      <ul className="space-y-1.5 text-sm">
        {waiting ? (
          <li className="text-neutral-700 dark:text-neutral-300">
            {/* a list item may not take the status role itself; the live region sits inside it */}
            <span role="status">Checking the carriers it shares identifiers with…</span>
          </li>
        ) : null}
        {signals.map((signal) => (
          <Signal key={signal.id} signal={signal} />
        ))}
      </ul>
    </Section>
  );
}
