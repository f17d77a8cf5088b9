import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../../components/Badge.tsx';
import { CompareToggle } from '../../../components/comparison/CompareToggle.tsx';
import type { Profile } from '../../../lib/service/index.ts';
import { enginePolicy, usePolicy } from '../../../entities/vetting/policy.ts';
import { profileIdOf } from '../../../lib/watchlist/profile-id.ts';
import { docketsOf, statusBadges } from './status.ts';
import { WatchControl } from './WatchControl.tsx';

interface ProfileHeaderProps {
  dot: string;
  profile: Profile;
}

/** The carrier's name: where focus lands when a search (or another carrier's link) opens the page. */
export const PROFILE_NAME_ID = 'profile-name';
/** The status badges: the evidence of the USDOT status and vendor risk score rules. */
const PROFILE_STATUS_ID = 'profile-status';

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
 * The badges wrap onto as many rows as they need (a sideways strip on a phone hid half of them,
 * cut mid-word, with no sign that it scrolled); smaller pills on a phone.
 */
const BADGE_LIST =
  'mt-3 flex scroll-mt-4 flex-wrap gap-2 rounded-md max-sm:mt-2 max-sm:gap-1 max-sm:[&>li>span]:px-2 max-sm:[&>li>span]:text-xs';

/** On a phone, what needs attention comes first (the list has no order). */
export function badgeOrderClass(tone: BadgeTone): string {
  return tone === 'bad' || tone === 'warn' ? 'max-sm:order-first' : '';
}

/**
 * The carrier's identity, the verdict (given by the page: the summary under the name), the status
 * badges, Watch, Compare, Tender check (the offer form with this carrier filled in) and the data's freshness (given by the page), shown above every tab. Condensed on a phone: smaller name and lines,
 * so the tabs and the start of the tab's content are on the first screen.
 */
export function ProfileHeader({
  dot,
  profile,
  verdict,
  freshness,
}: ProfileHeaderProps & { verdict?: ReactNode; freshness?: ReactNode }) {
  const name = profile.legal_name ?? `USDOT ${dot}`;
  const profileId = profileIdOf(profile, profile.dot_number ?? dot);
  // The team's policy, as the verdict banner reads it (the same query): badges and verdict agree.
  const policy = usePolicy();
  const badges = statusBadges(profile, policy.data ? enginePolicy(policy.data) : undefined);
  return (
    <header className="mb-4 max-sm:mb-2">
      <title>{`${name} · carrier-desk`}</title>
      <h1
        id={PROFILE_NAME_ID}
        tabIndex={-1}
        className="rounded-sm text-2xl font-semibold tracking-tight text-neutral-950 outline-offset-4 focus-visible:outline-2 focus-visible:outline-sky-600 max-sm:text-xl max-sm:leading-tight dark:text-neutral-50 dark:focus-visible:outline-sky-400"
      >
        {name}
      </h1>
      {profile.dba_name ? (
        <p className="text-neutral-700 max-sm:text-sm dark:text-neutral-300">
          Doing business as {profile.dba_name}
        </p>
      ) : null}
      <IdentityLine dot={dot} profile={profile} />
      {verdict}
      <ul id={PROFILE_STATUS_ID} aria-label="Status" className={BADGE_LIST}>
        {badges.map((badge) => (
          <li key={badge.id} className={badgeOrderClass(badge.tone)}>
            <Badge tone={badge.tone} label={badge.label}>
              {badge.value}
            </Badge>
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap items-center gap-x-8 gap-y-2 max-sm:mt-2 max-sm:gap-y-1">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 max-sm:gap-x-2 max-sm:gap-y-1 max-sm:text-xs max-sm:[&_*]:text-xs">
          {profileId ? <WatchControl profileId={profileId} /> : null}
          <CompareToggle dot={profile.dot_number ?? dot} name={profile.legal_name} />
          <Link
            to={`/tender-check?dot_number=${profile.dot_number ?? dot}`}
            className="inline-flex items-center gap-1 rounded-md border border-neutral-300 px-2 py-1 text-xs font-medium whitespace-nowrap text-neutral-800 hover:bg-neutral-100 dark:border-neutral-700 dark:text-neutral-100 dark:hover:bg-neutral-800 print:hidden"
          >
            Tender check
          </Link>
        </div>
        {freshness}
      </div>
    </header>
  );
}
