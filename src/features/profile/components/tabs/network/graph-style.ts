/**
 * How each status class is drawn, shared by the canvas and its legend: a colour per theme and a
 * shape, so the status does not rest on colour alone.
 */
import type { NodeStatus } from './graph-model.ts';

type Shape = 'ellipse' | 'round-rectangle' | 'octagon' | 'diamond';

export const STATUS_STYLE: Record<
  NodeStatus,
  { light: string; dark: string; shape: Shape; dashed: boolean }
> = {
  active: { light: '#15803d', dark: '#4ade80', shape: 'ellipse', dashed: false },
  inactive: { light: '#57534e', dark: '#a8a29e', shape: 'round-rectangle', dashed: false },
  'out-of-service': { light: '#b91c1c', dark: '#f87171', shape: 'octagon', dashed: false },
  revoked: { light: '#7e22ce', dark: '#c084fc', shape: 'diamond', dashed: false },
  unknown: { light: '#d4d4d4', dark: '#525252', shape: 'ellipse', dashed: true },
};

/** The same colours as Tailwind classes, for the legend and the list (currentColor fills). */
export const STATUS_TEXT_CLASS: Record<NodeStatus, string> = {
  active: 'text-green-700 dark:text-green-400',
  inactive: 'text-stone-600 dark:text-stone-400',
  'out-of-service': 'text-red-700 dark:text-red-400',
  revoked: 'text-purple-700 dark:text-purple-400',
  unknown: 'text-neutral-400 dark:text-neutral-500',
};
