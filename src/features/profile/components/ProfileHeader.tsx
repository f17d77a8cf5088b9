import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Badge, type BadgeTone } from '../../../components/Badge.tsx';
import { CompareToggle } from '../../../components/comparison/CompareToggle.tsx';
import type { Profile } from '../../../lib/service/index.ts';
import { enginePolicy, usePolicy } from '../../../lib/vetting-api.ts';
import { profileIdOf } from '../../../lib/watchlist/profile-id.ts';
import { docketsOf, statusBadges } from './status.ts';
import { WatchControl } from './WatchControl.tsx';
import { CurrentDecision } from './verdict/CurrentDecision.tsx';

interface ProfileHeaderProps {
  dot: string;
  profile: Profile;
}

function IdentityLine({ dot, profile }: ProfileHeaderProps) {
  const parts = [
    `USDOT ${profile.dot_number ?? dot}`,
    ...docketsOf(profile),
    profile.entity_type_desc,
    profile.carrier_operation_desc,
    profile.organization_type_desc,
  ].filter((part): part is string => Boolean(part));
  return (
    <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-neutral-700 max-sm:gap-x-2 max-sm:gap-y-0 max-sm:text-xs dark:text-neutral-300">
      {parts.map((part) => (
        <span key={part}>{part}</span>
      ))}
    </p>
  );
}

/**
 * The badges: on a phone (below `sm`) one row of smaller pills that scrolls sideways inside its own
 * box (the page never does), instead of four rows and half the screen.
 */
const BADGE_LIST =
  'mt-3 flex flex-wrap gap-2 max-sm:mt-2 max-sm:flex-nowrap max-sm:gap-1 max-sm:overflow-x-auto max-sm:pb-1 max-sm:[scrollbar-width:thin] max-sm:[&>li]:shrink-0 max-sm:[&>li>span]:px-2 max-sm:[&>li>span]:text-xs';

/** In the one-row strip of a phone, what needs attention comes first (the list has no order). */
export function badgeOrderClass(tone: BadgeTone): string {
  return tone === 'bad' || tone === 'warn' ? 'max-sm:order-first' : '';
}

/**
 * Whether the element's content is wider than its box (the badge strip on a phone): a box that
 * scrolls needs a tab stop so keyboard users can scroll it; on a wide screen it has none.
 */
function useOverflowing(ref: RefObject<HTMLElement | null>): boolean {
  const [overflowing, setOverflowing] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setOverflowing(element.scrollWidth > element.clientWidth + 1);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [ref]);
  return overflowing;
}

/**
 * The carrier's identity and status badges, shown above every tab. Condensed on a phone: smaller
 * name and lines, the decision and the watch control side by side, so the tabs and the start of
 * the tab's content are on the first screen.
 */
export function ProfileHeader({ dot, profile }: ProfileHeaderProps) {
  const name = profile.legal_name ?? `USDOT ${dot}`;
  const profileId = profileIdOf(profile, profile.dot_number ?? dot);
  const badgesRef = useRef<HTMLUListElement>(null);
  const badgesScroll = useOverflowing(badgesRef);
  // The team's policy, as the verdict banner reads it (the same query): badges and verdict agree.
  const policy = usePolicy();
  const badges = statusBadges(profile, policy.data ? enginePolicy(policy.data) : undefined);
  return (
    <header className="mb-4 max-sm:mb-2">
      <title>{`${name} · carrier-desk`}</title>
      <h1 className="text-2xl font-semibold tracking-tight text-neutral-950 max-sm:text-xl max-sm:leading-tight dark:text-neutral-50">
        {name}
      </h1>
      {profile.dba_name ? (
        <p className="text-neutral-700 max-sm:text-sm dark:text-neutral-300">
          Doing business as {profile.dba_name}
        </p>
      ) : null}
      <IdentityLine dot={dot} profile={profile} />
      <ul
        ref={badgesRef}
        aria-label="Status"
        className={BADGE_LIST}
        tabIndex={badgesScroll ? 0 : undefined}
      >
        {badges.map((badge) => (
          <li key={badge.id} className={badgeOrderClass(badge.tone)}>
            <Badge tone={badge.tone} label={badge.label}>
              {badge.value}
            </Badge>
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-col gap-3 max-sm:mt-1 max-sm:flex-row max-sm:flex-wrap max-sm:items-center max-sm:gap-x-2 max-sm:gap-y-1 max-sm:text-xs max-sm:[&_*]:text-xs max-sm:[&>section]:mt-0">
        <CurrentDecision dot={profile.dot_number ?? dot} />
        {profileId ? <WatchControl profileId={profileId} /> : null}
        <CompareToggle dot={profile.dot_number ?? dot} name={profile.legal_name} />
      </div>
    </header>
  );
}
