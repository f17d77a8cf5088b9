// The Safety tab's chart colours live in shared code: the Compare page draws with them too.
export { AXIS_TICK, CHART_COLORS, percentTick } from '../../../../../components/chart-style.ts';
