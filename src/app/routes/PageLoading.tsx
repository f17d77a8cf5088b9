/**
 * What the layout shows while a deep link's page code is still loading (the route's lazy module):
 * react-router's HydrateFallback of the pages' route, so the header and navigation stay usable.
 */
export function PageLoading() {
  return (
    <p role="status" className="text-sm text-neutral-600 dark:text-neutral-400">
      Loading the page…
    </p>
  );
}
