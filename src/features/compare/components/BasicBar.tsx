import { CHART_COLORS } from '../../../components/chart-style.ts';
import type { BasicRow } from '../../../lib/carrier/safety.ts';

/** 0–1 as a CSS percentage, kept inside the track. */
function percent(value: number): string {
  return `${Math.min(100, Math.max(0, value * 100))}%`;
}

/**
 * A BASIC percentile as the Safety tab draws it, small: a bar (red when in alert, blue otherwise)
 * and the intervention threshold as an amber tick with a diamond. Decorative: the cell's words say
 * the same ("72% (threshold 65%) · Alert").
 */
export function BasicBar({ row }: { row: BasicRow }) {
  return (
    <div
      aria-hidden="true"
      className="relative mt-1 h-3 w-full max-w-40 rounded-sm bg-neutral-200 [print-color-adjust:exact] dark:bg-neutral-700"
    >
      {row.percentile !== undefined ? (
        <div
          className="absolute inset-y-0 left-0 rounded-sm"
          style={{
            width: percent(row.percentile),
            backgroundColor: row.alert ? CHART_COLORS.alert : CHART_COLORS.bar,
          }}
        />
      ) : null}
      <div
        className="absolute -inset-y-0.5 w-0.5 -translate-x-1/2"
        style={{ left: percent(row.threshold), backgroundColor: CHART_COLORS.threshold }}
      />
      <div
        className="absolute top-1/2 size-2 -translate-x-1/2 -translate-y-1/2 rotate-45"
        style={{ left: percent(row.threshold), backgroundColor: CHART_COLORS.threshold }}
      />
    </div>
  );
}
