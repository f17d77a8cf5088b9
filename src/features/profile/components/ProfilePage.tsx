/**
 * The tabbed carrier profile at /carriers/:dot/:tab. The page owns the profile queries: the proxy's
 * summary (no long histories), from which the header and most tabs draw, and the full profile only
 * while a tab marked `full` is open (the history tabs ask the proxy for their own slices). So a
 * carrier whose full answer is megabytes opens with kilobytes. When the proxy cuts no summary (its
 * profile cache is off) every tab draws from the full profile, as the page did before slices.
 * Each tab is lazy-loaded (charts and maps stay out of the search page's bundle) and sits in its
 * own error boundary, so one unreadable field never blanks the page.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { Link, useLocation, useNavigationType, useParams } from 'react-router';
import { ErrorBoundary } from '../../../components/ErrorBoundary.tsx';
import { afterPaint, whenIdle } from '../../../lib/idle.ts';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { LoadingBlock, Skeleton } from '../../../components/Skeleton.tsx';
import { carrierPath, isDotNumber } from '../../../lib/carrier/paths.ts';
import { rememberCarrier } from '../../../lib/recent.ts';
import { useProfileData, type ProfileResult } from '../api/get-profile.ts';
import { DataFreshness } from './DataFreshness.tsx';
import { PROFILE_NAME_ID, ProfileHeader } from './ProfileHeader.tsx';
import { ProfileTabNav } from './ProfileTabNav.tsx';
import {
  loadedTab,
  prefetchTabSlices,
  preloadAllTabs,
  preloadSlicesCode,
  preloadTab,
  TAB_COMPONENTS,
  tabCodeSettled,
} from './tab-components.ts';
import { PROFILE_TABS, type ProfileTabId, type ProfileTabProps } from './tabs/types.ts';
import { highlightEvidence } from './tabs/overview/focus-target.ts';
import { VerdictBanner } from './verdict/VerdictBanner.tsx';
import { VerdictSummary } from './verdict/VerdictSummary.tsx';

function isTabId(value: string | undefined): value is ProfileTabId {
  return PROFILE_TABS.some((tab) => tab.id === value);
}

function tabOf(id: ProfileTabId) {
  return PROFILE_TABS.find((tab) => tab.id === id);
}

export function ProfilePage() {
  const { dot = '', tab } = useParams();
  if (!isDotNumber(dot)) {
    return (
      <NotAProfile
        title="Not a USDOT number"
        detail={`"${dot}" is not a USDOT number (1 to 8 digits).`}
      />
    );
  }
  if (!isTabId(tab)) {
    return (
      <NotAProfile
        title="No such profile section"
        detail={`The profile has no section "${tab ?? ''}".`}
        overviewDot={dot}
      />
    );
  }
  return <CarrierProfile dot={dot} tab={tab} />;
}

interface NotAProfileProps {
  title: string;
  detail: string;
  overviewDot?: string;
}

function NotAProfile({ title, detail, overviewDot }: NotAProfileProps) {
  return (
    <section aria-labelledby="not-a-profile">
      <title>{`${title} · carrier-desk`}</title>
      <h1 id="not-a-profile" className="text-2xl font-semibold tracking-tight">
        {title}
      </h1>
      <p className="mt-2 text-neutral-700 dark:text-neutral-300">{detail}</p>
      <p className="mt-4 flex gap-4">
        {overviewDot ? (
          <Link className="text-sky-700 underline dark:text-sky-300" to={carrierPath(overviewDot)}>
            Go to the carrier's overview
          </Link>
        ) : null}
        <Link className="text-sky-700 underline dark:text-sky-300" to="/search">
          Search for a carrier
        </Link>
      </p>
    </section>
  );
}

type ProfileQuery = ReturnType<typeof useProfileData>['full'];

/** Whether the tab's code is in (or failed to come); the component re-renders when it settles. */
function useTabCodeIn(tab: ProfileTabId): boolean {
  const [settled, setSettled] = useState<ProfileTabId | null>(null);
  const codeIn = loadedTab(tab) !== undefined || settled === tab;
  useEffect(() => {
    if (codeIn) return;
    let live = true;
    void tabCodeSettled(tab).then(() => {
      if (live) setSettled(tab);
    });
    return () => {
      live = false;
    };
  }, [tab, codeIn]);
  return codeIn;
}

function CarrierProfile({ dot, tab }: { dot: string; tab: ProfileTabId }) {
  const data = useProfileData(dot, tabOf(tab)?.full ?? false);
  const { full, summary, summaryUnavailable } = data;
  useEffect(() => preloadTab(tab), [tab]);
  useEffect(preloadSlicesCode, []);
  const codeIn = useTabCodeIn(tab);
  const shown = summary.data ?? full.data;
  // The first draw waits for the open tab's code as well as the data: drawn without it, the tab
  // would show a fallback first, and React holds content back ~300 ms after a fallback (its
  // fallback throttle). Once drawn, a tab switch keeps the page and waits in the tab's boundary.
  const [drawnDot, setDrawnDot] = useState<string | null>(null);
  const ready = shown?.profile !== undefined && (codeIn || drawnDot === dot);
  if (ready && drawnDot !== dot) setDrawnDot(dot);
  // the other tabs' code, once this one has drawn: a switch then waits for no download
  useEffect(() => (ready ? whenIdle(preloadAllTabs) : undefined), [ready]);
  // and, once drawn, the Inspections tab's slices of this carrier, cut from the profile the
  // summary came from: asked right after the overview's first paint, not at idle time (the page
  // is seldom idle before a click comes; the requests cost the page nothing until their answers
  // arrive), nor in the frame being drawn (starting them is ~20 ms of work)
  const client = useQueryClient();
  const onSummary = ready && summary.data?.profile !== undefined;
  useEffect(
    () => (onSummary ? afterPaint(() => prefetchTabSlices(client, dot)) : undefined),
    [onSummary, client, dot],
  );
  if (!shown) {
    if (summary.isError && !summaryUnavailable) return <ProfileError dot={dot} query={summary} />;
    return full.isError ? <ProfileError dot={dot} query={full} /> : <ProfileSkeleton dot={dot} />;
  }
  if (shown.profile && !ready) return <ProfileSkeleton dot={dot} />;
  if (!shown.profile) {
    return (
      <NotAProfile
        title={`No carrier with DOT ${dot}`}
        detail={`The data service has no carrier with USDOT number ${dot}. Check the number, or search by name or docket.`}
      />
    );
  }
  return (
    <LoadedProfile result={shown} full={full} tab={tab} summaryUnavailable={summaryUnavailable} />
  );
}

function ProfileError({ dot, query }: { dot: string; query: ProfileQuery }) {
  return (
    <section aria-labelledby="profile-error">
      <title>{`USDOT ${dot} · carrier-desk`}</title>
      <h1 id="profile-error" className="mb-4 text-2xl font-semibold tracking-tight">
        USDOT {dot}
      </h1>
      <ErrorState
        key={query.errorUpdatedAt}
        error={query.error}
        what="the carrier profile"
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    </section>
  );
}

/** The sr-only h2 naming the current tab: where focus lands after a link swapped the tab. */
const TAB_HEADING_ID = 'profile-tab-heading';

interface LoadedProfileProps {
  /** the summary when loaded, else the full profile */
  result: ProfileResult;
  full: ProfileQuery;
  tab: ProfileTabId;
  /** the proxy cuts no summary or views: every tab draws from the full profile */
  summaryUnavailable: boolean;
}

function LoadedProfile({ result, full, tab, summaryUnavailable }: LoadedProfileProps) {
  const { dot, profile } = result;
  const name = profile?.legal_name;
  useEffect(() => {
    if (name) rememberCarrier({ dot, name });
  }, [dot, name]);
  // the carrier this page has already landed on (ScrollToHash): a new one lands on its name
  const landedRef = useRef<Landing | null>(null);
  if (!profile) return null;
  const label = tabOf(tab)?.label ?? tab;
  const tabResult = summaryUnavailable || tabOf(tab)?.full ? full.data : result;
  return (
    <div
      data-profile-source={summaryUnavailable ? 'full' : 'summary'}
      data-full-profile={full.data ? 'loaded' : 'absent'}
    >
      <ProfileHeader
        dot={dot}
        profile={profile}
        verdict={
          <ErrorBoundary label="The verdict">
            <VerdictSummary
              dot={dot}
              profile={profile}
              compact={tab !== 'overview'}
              evaluateLocally={summaryUnavailable}
            />
          </ErrorBoundary>
        }
        freshness={<DataFreshness result={result} snapshotDate={profile.snapshot_date} />}
      />
      <ProfileTabNav dot={dot} current={tab} />
      <section aria-labelledby={TAB_HEADING_ID}>
        <h2 id={TAB_HEADING_ID} className="sr-only">
          {label}
        </h2>
        {tab === 'overview' ? (
          <ErrorBoundary label="The verdict">
            <VerdictBanner dot={dot} profile={profile} evaluateLocally={summaryUnavailable} />
          </ErrorBoundary>
        ) : null}
        {/* One boundary for every tab, outside the per-tab error boundary: a tab switch is a
            transition (the router's), so while the next tab's code loads React keeps the current
            tab on screen instead of mounting a fresh fallback, whose reveal React would hold back
            for its fallback throttle (~300 ms). A first load shows the fallback. */}
        <Suspense fallback={<LoadingBlock label={`Loading the ${label} tab`} />}>
          <ErrorBoundary key={tab} label={`The ${label} tab`}>
            <TabBody
              result={tabResult}
              source={tabResult === full.data ? 'full' : 'summary'}
              full={full}
              tab={tab}
              landedRef={landedRef}
            />
          </ErrorBoundary>
        </Suspense>
      </section>
    </div>
  );
}

/** The tab itself, or, for a tab that needs the full profile, its loading state or error. */
function TabBody({
  result,
  source,
  full,
  tab,
  landedRef,
}: {
  result?: ProfileResult | undefined;
  source: ProfileTabProps['source'];
  full: ProfileQuery;
  tab: ProfileTabId;
  landedRef: RefObject<Landing | null>;
}) {
  // Code already in renders at once; else the lazy component suspends until it arrives. Chosen once
  // per mount (the boundary around this is keyed by tab), so the tab never swaps component types.
  const [TabComponent] = useState(() => loadedTab(tab) ?? TAB_COMPONENTS[tab]);
  const label = tabOf(tab)?.label ?? tab;
  const loading = <LoadingBlock label={`Loading the ${label} tab`} />;
  if (!result?.profile) {
    if (!full.isError) return loading;
    return (
      <ErrorState
        key={full.errorUpdatedAt}
        error={full.error}
        what={`the full profile for the ${label} tab`}
        onRetry={() => void full.refetch()}
        retrying={full.isFetching}
      />
    );
  }
  return (
    <>
      <TabComponent
        dot={result.dot}
        profile={result.profile}
        raw={result.raw}
        issues={result.issues}
        source={source}
      />
      <ScrollToHash dot={result.dot} landedRef={landedRef} />
    </>
  );
}

/** The carrier a profile page last landed on, and for which navigation. */
interface Landing {
  dot: string;
  key: string;
  arriving: boolean;
}

/** Focus counts as lost on <body>, on a removed element, or on <main> (the layout's skip target). */
function focusLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || active.tagName === 'MAIN';
}

/**
 * Scrolls to the element a link named (`#safety-basics`, from a verdict reason) once the tab has
 * rendered, and outlines it a moment: it sits beside the tab under the same Suspense boundary, so
 * it mounts together with it.
 *
 * It also keeps keyboard users in place. After an in-app navigation (PUSH, or the REPLACE of a
 * search with one result) that left focus nowhere: arriving at a carrier (a header search, a
 * result row, another carrier's link) focuses the carrier's name, the h1, from which the next Tab
 * is "Record a decision"; a link inside the old tab ("see Safety", an evidence link) focuses the
 * section it named, else the tab's heading. A tab link in the tab bar keeps its own focus, and a
 * first load or a history step (POP) leaves focus to the browser.
 */
function ScrollToHash({ dot, landedRef }: { dot: string; landedRef: RefObject<Landing | null> }) {
  const { hash, pathname, key } = useLocation();
  const navigation = useNavigationType();
  useEffect(() => {
    // an effect run again for the same navigation (React's strict mode) decides as it did first
    const previous = landedRef.current;
    const arriving = previous?.key === key ? previous.arriving : previous?.dot !== dot;
    landedRef.current = { dot, key, arriving };
    const id = decodeURIComponent(hash.slice(1));
    const target = id ? document.getElementById(id) : null;
    if (target) {
      // jsdom (unit tests) has no scrolling
      if (typeof target.scrollIntoView === 'function') target.scrollIntoView({ block: 'start' });
      highlightEvidence(target);
    }
    if (navigation === 'POP' || !focusLost()) return;
    const landing = target ?? document.getElementById(arriving ? PROFILE_NAME_ID : TAB_HEADING_ID);
    if (!landing) return;
    if (!landing.hasAttribute('tabindex')) landing.setAttribute('tabindex', '-1');
    landing.focus({ preventScroll: Boolean(target) });
  }, [hash, pathname, key, navigation, dot, landedRef]);
  return null;
}

/**
 * The page while the first answer is on its way (or a retry after an error is): it keeps the page's
 * one h1, so assistive technology and a11y checks never see a page without a heading.
 */
function ProfileSkeleton({ dot }: { dot: string }) {
  return (
    <div role="status" className="space-y-4">
      <h1 className="sr-only">USDOT {dot}</h1>
      <span className="sr-only">Loading carrier profile…</span>
      <Skeleton className="h-8 w-1/2" />
      <Skeleton className="h-4 w-1/3" />
      <div className="flex gap-2">
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} className="h-6 w-28 rounded-full" />
        ))}
      </div>
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}
