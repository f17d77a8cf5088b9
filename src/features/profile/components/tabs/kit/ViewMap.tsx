/** The map of a history tab on the proxy's slices, with what stands in for it until it can draw. */
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorState } from '../../../../../components/ErrorState.tsx';
import { LoadingBlock } from '../../../../../components/Skeleton.tsx';
import { MapPlaceholder, MapView } from '../../../../../components/map/index.tsx';
import type { MapPoint, MapViewProps } from '../../../../../components/map/types.ts';

interface ViewMapProps extends Omit<MapViewProps, 'points'> {
  /** the query of the `*-points` view */
  query: Pick<
    UseQueryResult<unknown>,
    'data' | 'isError' | 'error' | 'errorUpdatedAt' | 'isFetching' | 'refetch'
  >;
  /** the points built from the query's triples, undefined while they are being built */
  points: readonly MapPoint[] | undefined;
}

/**
 * The map once its points are built; a placeholder of the map's size while they are (a deferred
 * render, after the table's first rows); a loading block while they download; and the error, with a
 * retry, when they could not be had (the table above or below still shows).
 */
export function ViewMap({ query, points, ...map }: ViewMapProps) {
  if (points) return <MapView {...map} points={points} />;
  if (query.data !== undefined) return <MapPlaceholder label={map.label} height={map.height} />;
  const what = map.label.charAt(0).toLowerCase() + map.label.slice(1);
  if (query.isError) {
    return (
      <ErrorState
        key={query.errorUpdatedAt}
        error={query.error}
        what={`the ${what}`}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  return <LoadingBlock label={`Loading the ${what}`} lines={2} />;
}
