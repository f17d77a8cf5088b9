/** One point on the map: an inspection, a crash, an address. */
export interface MapPoint {
  /** stable id, e.g. the inspection's `_id`; used for selection in both directions */
  id: string;
  lat: number;
  lon: number;
  /** short text for the popup and the accessible list, e.g. "Inspection 12 Mar 2026, TX" */
  label: string;
  /** optional grouping shown with its own colour, e.g. 'physical' | 'mailing' */
  kind?: string;
  /** more lines for the popup, e.g. ["Level 1 (full)", "3 violations", "Out of service: No"] */
  details?: readonly string[];
}

export interface MapViewProps {
  /** accessible name of the map region, e.g. "Map of inspection locations" */
  label: string;
  points: readonly MapPoint[];
  /** the selected point's id (highlighted, popup open) */
  selectedId?: string | undefined;
  onSelect?: ((id: string) => void) | undefined;
  /** cluster nearby points (default true) */
  cluster?: boolean;
  /** CSS height, default 360px */
  height?: string;
  /** what a point of the default kind is, for the legend, e.g. "Inspection" (default "Location") */
  pointName?: string;
}
