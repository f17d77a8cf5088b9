/** Shared chart colours (chosen for ≥ 3:1 contrast on both the light and the dark background): the
 * Safety tab's charts and the Compare page's BASIC bars speak the same language. */
export const CHART_COLORS = {
  bar: '#0284c7',
  alert: '#dc2626',
  threshold: '#a16207',
  national: '#737373',
} as const;

/** Axis ticks and labels follow the text colour, so they read in light and dark mode. */
export const AXIS_TICK = { fill: 'currentColor', fontSize: 12 } as const;

export function percentTick(value: number): string {
  return `${Math.round(value * 100)}%`;
}
