import { CHANNELS, type Channel } from '../../../lib/service/index.ts';
import type { ChannelCounts } from '../../../lib/monitoring/inbox.ts';
import { CHANNEL_LABELS } from './channel-labels.ts';

interface ChannelRailProps {
  counts: ChannelCounts;
  selected: readonly Channel[];
  onToggle: (channel: Channel) => void;
}

/** Untriaged changes per channel on the loaded page; each entry toggles its channel filter. */
export function ChannelRail({ counts, selected, onToggle }: ChannelRailProps) {
  return (
    <nav aria-label="Channels" className="w-full shrink-0 md:w-48">
      <h2 className="mb-2 text-sm font-semibold text-neutral-900 dark:text-neutral-100">
        Untriaged by channel
      </h2>
      <ul className="flex flex-wrap gap-1 md:flex-col">
        {CHANNELS.map((channel) => {
          const active = selected.includes(channel);
          return (
            <li key={channel}>
              <button
                type="button"
                aria-pressed={active}
                onClick={() => onToggle(channel)}
                className={`flex w-full items-center justify-between gap-3 rounded-md px-2 py-1.5 text-left text-sm ${
                  active
                    ? 'bg-neutral-900 text-white dark:bg-neutral-100 dark:text-neutral-900'
                    : 'text-neutral-800 hover:bg-neutral-100 dark:text-neutral-200 dark:hover:bg-neutral-800'
                }`}
              >
                <span>{CHANNEL_LABELS[channel]}</span>
                <span className="tabular-nums" aria-label={`${counts[channel]} untriaged`}>
                  {counts[channel]}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <p className="mt-2 text-xs text-neutral-600 dark:text-neutral-400">
        Counts cover the loaded page ({counts.total} untriaged).
      </p>
    </nav>
  );
}
