import { Badge } from '../../../components/Badge.tsx';
import type { Profile } from '../../../lib/service/index.ts';
import { profileIdOf } from '../../../lib/watchlist.ts';
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
    <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-neutral-700 dark:text-neutral-300">
      {parts.map((part) => (
        <span key={part}>{part}</span>
      ))}
    </p>
  );
}

/** The carrier's identity and status badges, shown above every tab. */
export function ProfileHeader({ dot, profile }: ProfileHeaderProps) {
  const name = profile.legal_name ?? `USDOT ${dot}`;
  const profileId = profileIdOf(profile, profile.dot_number ?? dot);
  return (
    <header className="mb-4">
      <title>{`${name} · carrier-desk`}</title>
      <h1 className="text-2xl font-semibold tracking-tight text-neutral-950 dark:text-neutral-50">
        {name}
      </h1>
      {profile.dba_name ? (
        <p className="text-neutral-700 dark:text-neutral-300">
          Doing business as {profile.dba_name}
        </p>
      ) : null}
      <IdentityLine dot={dot} profile={profile} />
      <ul aria-label="Status" className="mt-3 flex flex-wrap gap-2">
        {statusBadges(profile).map((badge) => (
          <li key={badge.id}>
            <Badge tone={badge.tone} label={badge.label}>
              {badge.value}
            </Badge>
          </li>
        ))}
      </ul>
      <CurrentDecision dot={profile.dot_number ?? dot} />
      {profileId ? (
        <div className="mt-3">
          <WatchControl profileId={profileId} />
        </div>
      ) : null}
    </header>
  );
}
